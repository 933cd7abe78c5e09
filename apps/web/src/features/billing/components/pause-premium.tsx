import type { Pause } from '@tunes/shared/billing';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '@/components/dialog';
import { FormError } from '@/components/form-field';
import { userMessage } from '@/lib/api-error';
import { formatDate, formatPrice } from '@/lib/format';
import { toast } from '@/lib/toast';
import { usePausePremium, usePauseState, useResumePremium } from '../api/pause';
import styles from './billing.module.css';

const MONTHS = [1, 2, 3] as const;

/** Adds calendar months as the server does (premium/period.ts): the same day, or the month's last. */
function addMonths(iso: string, months: number): string {
  const date = new Date(iso);
  const day = date.getUTCDate();
  const moved = new Date(date);
  moved.setUTCDate(1);
  moved.setUTCMonth(moved.getUTCMonth() + months);
  const last = new Date(Date.UTC(moved.getUTCFullYear(), moved.getUTCMonth() + 1, 0)).getUTCDate();
  moved.setUTCDate(Math.min(day, last));
  return moved.toISOString();
}

/**
 * Pause Premium for 1, 2 or 3 months (issue 37, YouTube's offer): before confirming, what it
 * does is spelled out — Premium to the end of the paid period, then none for the owner and the
 * plan's members until the resumption day, when the card is charged. A pause shows its dates
 * and Resume now.
 */
export function PausePremium({
  version,
  amount,
  currency,
}: {
  version: string;
  amount: number;
  currency: string;
}) {
  const { t, i18n } = useTranslation('billing');
  const language = i18n.language;
  const state = usePauseState(version);
  const resume = useResumePremium();
  const [open, setOpen] = useState(false);
  const data = state.data;
  if (
    !data ||
    (data.unavailable !== null &&
      data.unavailable !== 'paused' &&
      data.unavailable !== 'needs_card' &&
      data.unavailable !== 'trial')
  )
    return null;
  if (data.pause) {
    const pause = data.pause;
    return (
      <div className={styles.block}>
        <h3 className={styles.subheading}>{t('pause.title')}</h3>
        <p className={styles.pending} role="status">
          {t(pause.started ? 'pause.paused-now' : 'pause.paused-later', {
            from: formatDate(pause.startsAt, language),
            until: formatDate(pause.resumesAt, language),
            amount: formatPrice(pause.amount, pause.currency, language),
          })}
        </p>
        <button
          type="button"
          className="button button--primary"
          disabled={resume.isPending}
          aria-busy={resume.isPending}
          onClick={() =>
            resume.mutate(pause.subscriptionId, {
              onSuccess: ({ outcome }) =>
                toast.success(outcome === 'withdrawn' ? t('pause.withdrawn') : t('pause.resumed')),
            })
          }
        >
          {pause.started ? t('pause.resume-now') : t('pause.withdraw')}
        </button>
      </div>
    );
  }
  return (
    <div className={styles.block}>
      <h3 className={styles.subheading}>{t('pause.title')}</h3>
      {data.unavailable === 'needs_card' || data.unavailable === 'trial' ? (
        <p className={styles.note}>{t(`pause.unavailable.${data.unavailable}`)}</p>
      ) : (
        <>
          <p className={styles.note}>{t('pause.intro')}</p>
          <button
            type="button"
            className="button button--ghost"
            aria-haspopup="dialog"
            onClick={() => setOpen(true)}
          >
            {t('pause.open')}
          </button>
        </>
      )}
      {open && data.subscriptionId && data.endDate && (
        <Dialog open title={t('pause.dialog-title')} onClose={() => setOpen(false)}>
          <PauseForm
            subscriptionId={data.subscriptionId}
            endDate={data.endDate}
            members={data.members}
            amount={amount}
            currency={currency}
            onDone={() => setOpen(false)}
          />
        </Dialog>
      )}
    </div>
  );
}

function PauseForm(props: {
  subscriptionId: string;
  endDate: string;
  members: number;
  amount: number;
  currency: string;
  onDone(): void;
}) {
  const { t, i18n } = useTranslation('billing');
  const language = i18n.language;
  const pause = usePausePremium();
  const [months, setMonths] = useState<1 | 2 | 3>(1);
  const [failure, setFailure] = useState('');
  const resumesAt = addMonths(props.endDate, months);
  const facts = {
    from: formatDate(props.endDate, language),
    until: formatDate(resumesAt, language),
    amount: formatPrice(props.amount, props.currency, language),
    count: props.members,
  };
  const submit = async () => {
    setFailure('');
    try {
      const done: Pause = await pause.mutateAsync({ subscriptionId: props.subscriptionId, months });
      toast.success(t('pause.done', { until: formatDate(done.resumesAt, language) }));
      props.onDone();
    } catch (error) {
      setFailure(userMessage(error));
    }
  };
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <fieldset className={styles.method}>
        <legend>{t('pause.how-long')}</legend>
        {MONTHS.map((count) => (
          <label key={count}>
            <input
              type="radio"
              name="pause-months"
              value={count}
              checked={months === count}
              data-autofocus={count === 1 ? true : undefined}
              onChange={() => setMonths(count)}
            />
            <span>{t('pause.months', { count })}</span>
          </label>
        ))}
      </fieldset>
      <div aria-live="polite">
        <p>{t('pause.explain-keep', facts)}</p>
        <p>{props.members > 0 ? t('pause.explain-members', facts) : t('pause.explain-alone', facts)}</p>
        <p>{t('pause.explain-resume', facts)}</p>
      </div>
      {failure && <FormError>{failure}</FormError>}
      <div className={styles.actions}>
        <button
          type="submit"
          className="button button--primary"
          disabled={pause.isPending}
          aria-busy={pause.isPending}
        >
          {t('pause.confirm', { count: months })}
        </button>
        <button type="button" className="button button--ghost" onClick={props.onDone}>
          {t('pause.cancel')}
        </button>
      </div>
    </form>
  );
}
