import type { Plan } from '@tunes/shared/premium';
import { localized } from '@tunes/shared/premium-rules';
import type { SubscriptionView } from '@tunes/shared/profile';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearch } from 'wouter';
import { formatDate, formatPrice } from '@/lib/format';
import { useChangePlan } from '../api/change-plan';
import { usePlanChangePreview } from '../api/get-plan-change-preview';
import { usePlanChoices } from '../api/get-plan-choices';
import { monthlyCost, planChangeKind, seatsOf } from '../plan-change-kind';
import styles from './billing.module.css';
import type { Renewal } from './types';

/**
 * Change plan (product.md §12) among the MNT plans for sale. Before confirming, the choice says
 * what will happen: an upgrade now for the prorated difference (the saved card, else the gateway
 * page), a downgrade at the renewal with the seats it leaves. After it, a status line says what
 * did happen; a downgrade's members losing their seat show in the renewal summary.
 */
export function ChangePlan({
  subscription,
  renewal,
  hasCard,
  trialUntil = null,
}: {
  subscription: SubscriptionView;
  renewal: Renewal;
  hasCard: boolean;
  /** The end of a first-time trial's free days: an upgrade in them is free (decision 0045). */
  trialUntil?: string | null;
}) {
  const { t, i18n } = useTranslation('billing');
  const language = i18n.language;
  // /premium links a subscriber's "change to this plan" here as `?change=<MerchantCode>`: the
  // step opens with that plan chosen, waiting for Confirm (issue 37).
  const asked = new URLSearchParams(useSearch()).get('change');
  const askedOther = asked && asked !== subscription.PackageCost.MerchantCode ? asked : null;
  const [open, setOpen] = useState(askedOther !== null);
  const [choice, setChoice] = useState<string | null>(askedOther);
  const [result, setResult] = useState('');
  const plans = usePlanChoices(open);
  const change = useChangePlan(renewal.subscriptionId);
  const panelId = useId();
  const openButton = useRef<HTMLButtonElement>(null);
  const panelHeading = useRef<HTMLHeadingElement>(null);
  const wasOpen = useRef(false);

  // Focus follows the panel: into it when it opens, back to its button when it closes.
  useEffect(() => {
    if (open) panelHeading.current?.focus();
    else if (wasOpen.current) openButton.current?.focus();
    wasOpen.current = open;
  }, [open]);

  const currentCode = subscription.PackageCost.MerchantCode;
  const choices = plans.data ?? [];
  const current = choices.find((plan) => plan.MerchantCode === currentCode);
  const chosen = choices.find((plan) => plan.MerchantCode === choice);
  const busy = change.isPending || (change.isSuccess && change.data.status === 'payment_required');
  // The amount is on screen before Confirm (issue 37): an upgrade waits for its preview.
  const preview = usePlanChangePreview(
    renewal.subscriptionId,
    chosen && chosen.MerchantCode !== currentCode ? chosen.MerchantCode : null,
  );
  const awaitingAmount = Boolean(
    chosen && planChangeKind(current, chosen) === 'upgrade' && preview.isPending,
  );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!chosen) return;
    const name = localized(chosen.Name, language);
    change.mutate(chosen.MerchantCode, {
      onSuccess: (answer) => {
        if (answer.status === 'payment_required') {
          setResult(t('change.redirecting'));
          return;
        }
        if (answer.status === 'changed') {
          setResult(
            answer.amount > 0
              ? t('change.changed', {
                  plan: name,
                  amount: formatPrice(answer.amount, chosen.Currency, language),
                })
              : t('change.changed-free', { plan: name }),
          );
        } else if (chosen.MerchantCode === currentCode) {
          setResult(t('renewal.kept'));
        } else {
          setResult(t('change.scheduled', { plan: name, date: formatDate(answer.startsAt, language) }));
        }
        setChoice(null);
        setOpen(false);
      },
    });
  };

  return (
    <div className={styles.block}>
      <p className={styles.result} role="status">
        {result}
      </p>
      {!open && (
        <button
          ref={openButton}
          type="button"
          className="button button--ghost"
          aria-expanded={false}
          aria-controls={panelId}
          onClick={() => {
            setResult('');
            setOpen(true);
          }}
        >
          {t('change.open')}
        </button>
      )}
      {open && (
        <form id={panelId} className={styles.changePanel} onSubmit={submit} aria-busy={plans.isPending}>
          <h3 ref={panelHeading} tabIndex={-1} className={styles.subheading}>
            {t('change.title')}
          </h3>
          {plans.isPending && <p role="status">{t('change.loading')}</p>}
          {plans.isError && <p role="alert">{t('change.failed')}</p>}
          {choices.length > 0 && (
            <fieldset className={styles.choices}>
              <legend className={styles.legend}>{t('change.choose')}</legend>
              {choices.map((plan) => {
                const isCurrent = plan.MerchantCode === currentCode;
                const id = `${panelId}-${plan.MerchantCode}`;
                return (
                  <div key={plan.MerchantCode} className={styles.choice}>
                    <input
                      id={id}
                      type="radio"
                      name="plan"
                      value={plan.MerchantCode}
                      checked={choice === plan.MerchantCode}
                      // The plan in force can be chosen only to withdraw a waiting downgrade.
                      disabled={isCurrent && !renewal.pendingChange}
                      onChange={() => setChoice(plan.MerchantCode)}
                    />
                    <label htmlFor={id}>
                      <span className={styles.choiceName}>
                        {localized(plan.Name, language)}
                        {isCurrent && <span className={styles.muted}> ({t('change.current')})</span>}
                      </span>
                      <span className={styles.muted}>
                        {t('change.per-month', {
                          price: formatPrice(monthlyCost(plan), plan.Currency, language),
                        })}
                        {' · '}
                        {t('change.users', { count: seatsOf(plan) })}
                      </span>
                    </label>
                  </div>
                );
              })}
            </fieldset>
          )}
          <div aria-live="polite">
            {chosen && (
              <ChoiceOutcome
                chosen={chosen}
                current={current}
                renewal={renewal}
                hasCard={hasCard}
                trialUntil={trialUntil}
                isCurrent={chosen.MerchantCode === currentCode}
                preview={preview}
              />
            )}
          </div>
          <div className={styles.actions}>
            <button
              type="submit"
              className="button button--primary"
              disabled={!chosen || busy || awaitingAmount}
              aria-busy={busy}
            >
              {busy ? t('change.changing') : t('change.confirm')}
            </button>
            <button
              type="button"
              className="button button--ghost"
              onClick={() => {
                setChoice(null);
                setOpen(false);
              }}
              disabled={busy}
            >
              {t('change.cancel')}
            </button>
          </div>
        </form>
      )}
    </div>
  );
}

/** What confirming the chosen plan will do, before it is done. */
function ChoiceOutcome({
  chosen,
  current,
  renewal,
  hasCard,
  trialUntil,
  isCurrent,
  preview,
}: {
  chosen: Plan;
  current: Plan | undefined;
  renewal: Renewal;
  hasCard: boolean;
  trialUntil: string | null;
  isCurrent: boolean;
  preview: ReturnType<typeof usePlanChangePreview>;
}) {
  const { t, i18n } = useTranslation('billing');
  const language = i18n.language;
  if (isCurrent) return <p className={styles.note}>{t('change.keep')}</p>;
  const values = {
    plan: localized(chosen.Name, language),
    date: formatDate(renewal.endDate, language),
    price: formatPrice(monthlyCost(chosen), chosen.Currency, language),
  };
  if (planChangeKind(current, chosen) === 'upgrade' && trialUntil) {
    return (
      <p className={styles.note}>
        {t('change.upgrade-trial', { ...values, date: formatDate(trialUntil, language) })}
      </p>
    );
  }
  if (planChangeKind(current, chosen) === 'upgrade') {
    return (
      <>
        <p className={styles.note}>
          {t('change.upgrade', values)} {hasCard ? t('change.upgrade-card') : t('change.upgrade-link')}
        </p>
        <ChargeNow preview={preview} />
      </>
    );
  }
  return (
    <p className={styles.note}>
      {t('change.downgrade', values)}{' '}
      {current &&
        seatsOf(chosen) < seatsOf(current) &&
        t('change.downgrade-seats', { ...values, count: seatsOf(chosen) })}
    </p>
  );
}

/** The exact amount an upgrade charges on Confirm and the date the plan starts, from the server. */
function ChargeNow({ preview }: { preview: ReturnType<typeof usePlanChangePreview> }) {
  const { t, i18n } = useTranslation('billing');
  const language = i18n.language;
  if (preview.isPending) return <p className={styles.note}>{t('change.preview-loading')}</p>;
  if (preview.isError) return <p role="alert">{preview.error.message}</p>;
  return (
    <p className={styles.chargeNow}>
      {t('change.charge-now', {
        amount: formatPrice(preview.data.amount, preview.data.currency, language),
        date: formatDate(preview.data.startsAt, language),
      })}
    </p>
  );
}
