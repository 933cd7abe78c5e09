import { useQueryClient } from '@tanstack/react-query';
import type { Plan } from '@tunes/shared/premium';
import { localized } from '@tunes/shared/premium-rules';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import { Dialog } from '@/components/dialog';
import { FormError } from '@/components/form-field';
import { ApiError, userMessage } from '@/lib/api-error';
import { formatDate, formatPrice } from '@/lib/format';
import { toast } from '@/lib/toast';
import { useStartTrial } from '../api/trial';
import type { TrialMethod, TrialPlan } from '../types';
import styles from './trials.module.css';

/**
 * "Try free for N days" on a plan's card (issue 38): the terms spelled out before it starts —
 * free until the date, then the price, how it renews, and cancel any time on the profile.
 */
export function TrialOffer({ plan, trial }: { plan: Plan; trial: TrialPlan }) {
  const { t } = useTranslation('premium');
  const [open, setOpen] = useState(false);
  return (
    <div className={styles.trial}>
      <button
        type="button"
        className="button button--ghost button--block"
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
      >
        {t('trial.try', { count: trial.TrialDays })}
      </button>
      {open && (
        <Dialog
          open
          title={t('trial.dialog-title', { count: trial.TrialDays })}
          onClose={() => setOpen(false)}
        >
          <TrialForm plan={plan} trial={trial} onDone={() => setOpen(false)} />
        </Dialog>
      )}
    </div>
  );
}

function TrialForm({ plan, trial, onDone }: { plan: Plan; trial: TrialPlan; onDone(): void }) {
  const { t, i18n } = useTranslation('premium');
  const language = i18n.language;
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const start = useStartTrial();
  const [method, setMethod] = useState<TrialMethod>('card');
  const [failure, setFailure] = useState('');
  // By the server's clock, which decides the trial's end (this device's may be wrong).
  const until = trial.EndsAt;
  const facts = {
    plan: localized(plan.Name, language),
    date: formatDate(until, language),
    price: formatPrice(trial.Cost, plan.Currency, language),
    count: trial.TrialDays,
  };
  const submit = async () => {
    setFailure('');
    try {
      const answer = await start.mutateAsync({ merchantCode: plan.MerchantCode, method });
      if ('startedUntil' in answer) {
        toast.success(t('trial.started', { date: formatDate(answer.startedUntil, language) }));
        // To the profile first: once subscribed, the plans page would send the listener home.
        onDone();
        navigate('/profile');
        void queryClient.invalidateQueries({ queryKey: ['profile'] });
        void queryClient.invalidateQueries({ queryKey: ['billing'] });
      }
    } catch (error) {
      // One per phone number too: that refusal says so, not "you have had one".
      const byNumber = error instanceof ApiError && error.body.reason === 'used_number';
      setFailure(byNumber ? t('trial.not-eligible.used_number') : userMessage(error));
    }
  };
  const busy = start.isPending || start.isSuccess;
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <fieldset className={styles.methods}>
        <legend>{t('trial.how-renew')}</legend>
        {(['card', 'qpay'] as const).map((option) => (
          <label key={option}>
            <input
              type="radio"
              name="trial-method"
              value={option}
              checked={method === option}
              data-autofocus={option === 'card' ? true : undefined}
              onChange={() => setMethod(option)}
            />
            <span>{t(`trial.method.${option}`)}</span>
          </label>
        ))}
      </fieldset>
      <ul className={styles.terms} aria-live="polite">
        <li>{t('trial.terms.free', facts)}</li>
        <li>{t(`trial.terms.then-${method}`, facts)}</li>
        <li>{t('trial.terms.cancel', facts)}</li>
      </ul>
      {failure && <FormError>{failure}</FormError>}
      <div className={styles.actions}>
        <button type="submit" className="button button--primary" disabled={busy} aria-busy={busy}>
          {t(`trial.start-${method}`)}
        </button>
        <button type="button" className="button button--ghost" onClick={onDone}>
          {t('trial.not-now')}
        </button>
      </div>
    </form>
  );
}

/** Why this listener is offered no trial, when plans have one: once per person. */
export function TrialRefusedNote({ reason }: { reason: 'used_account' | 'used_number' }) {
  const { t } = useTranslation('premium');
  return <p className={styles.note}>{t(`trial.not-eligible.${reason}`)}</p>;
}
