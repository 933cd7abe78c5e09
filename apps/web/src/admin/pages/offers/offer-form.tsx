import { useQuery } from '@tanstack/react-query';
import { DAY_MS, SERVICE_TIME_ZONE } from '@tunes/shared/constants';
import { API_ERROR_CODES } from '@tunes/shared/error-codes';
import {
  OFFER_AUDIENCES,
  OFFER_KINDS,
  OFFER_MAX_PERIODS,
  OFFER_MAX_REDEMPTIONS,
  type OfferCreate,
} from '@tunes/shared/offers';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { FormError, FormField, TextField } from '@/components/form-field';
import { showFailure } from '../../forms';
import { listPlans, plansKey } from '../plans/plan-api';
import { createOffer, type OfferFormValues, offerResolver } from './offer-api';
import styles from './offers.module.css';

const ulaanbaatarDay = new Intl.DateTimeFormat('en-CA', {
  timeZone: SERVICE_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});
/** The service's day (Ulaanbaatar's) `days` from now, as `YYYY-MM-DD` for the date field. */
const inDays = (days: number) => ulaanbaatarDay.format(new Date(Date.now() + days * DAY_MS));

const defaults = (): OfferFormValues => ({
  code: '',
  kind: 'percent',
  value: 20,
  periods: 1,
  audience: 'new',
  plans: [],
  maxRedemptions: 100,
  endsOn: inDays(30),
});

/** Admin: a new offer — a percent or an amount off for N periods, for whom, how many, until when. */
export function NewOfferForm() {
  const { t } = useTranslation('admin');
  const plans = useQuery({ queryKey: plansKey, queryFn: listPlans });
  const form = useForm<OfferFormValues, unknown, OfferCreate>({
    resolver: offerResolver,
    defaultValues: defaults(),
  });
  const { errors, isSubmitting } = form.formState;
  const kind = form.watch('kind');

  const create = form.handleSubmit(async (offer) => {
    try {
      const created = await createOffer(offer);
      toast.success(t('offers.created', { code: created.code }));
      form.reset(defaults());
    } catch (failure) {
      showFailure(form, failure, { [API_ERROR_CODES.offerCodeTaken]: 'code', endsAt: 'endsOn' });
    }
  });

  const number = (name: 'value' | 'periods' | 'maxRedemptions', min: number, max: number, hint?: string) => (
    <TextField
      id={`offer-${name}`}
      label={name === 'value' ? t(`offers.fields.value-${kind}`) : t(`offers.fields.${name}`)}
      hint={hint}
      error={errors[name]?.message}
      type="number"
      inputMode="numeric"
      min={min}
      max={max}
      {...form.register(name, { valueAsNumber: true })}
    />
  );

  return (
    <form className="admin-section admin-grid-form" noValidate onSubmit={create} aria-labelledby="offer-new">
      <h2 id="offer-new" className="admin-subtitle">
        {t('offers.new')}
      </h2>
      <TextField
        id="offer-code"
        label={t('offers.fields.code')}
        hint={t('offers.hints.code')}
        error={errors.code?.message}
        autoCapitalize="characters"
        maxLength={32}
        {...form.register('code')}
      />
      <FormField id="offer-kind" label={t('offers.fields.kind')} error={errors.kind?.message}>
        {(control) => (
          <select {...control} className="select" {...form.register('kind')}>
            {OFFER_KINDS.map((option) => (
              <option key={option} value={option}>
                {t(`offers.kinds.${option}`)}
              </option>
            ))}
          </select>
        )}
      </FormField>
      {number('value', 1, kind === 'percent' ? 99 : 10_000_000)}
      {number('periods', 1, OFFER_MAX_PERIODS, t('offers.hints.periods'))}
      <FormField id="offer-audience" label={t('offers.fields.audience')} error={errors.audience?.message}>
        {(control) => (
          <select {...control} className="select" {...form.register('audience')}>
            {OFFER_AUDIENCES.map((option) => (
              <option key={option} value={option}>
                {t(`offers.audiences.${option}`)}
              </option>
            ))}
          </select>
        )}
      </FormField>
      {number('maxRedemptions', 1, OFFER_MAX_REDEMPTIONS)}
      <TextField
        id="offer-ends"
        label={t('offers.fields.endsOn')}
        error={errors.endsOn?.message}
        type="date"
        min={inDays(1)}
        {...form.register('endsOn')}
      />
      <fieldset className={`admin-grid-wide ${styles.plans}`} aria-describedby="offer-plans-hint">
        <legend>{t('offers.fields.plans')}</legend>
        <p id="offer-plans-hint" className="admin-muted">
          {t('offers.hints.plans')}
        </p>
        {plans.data?.plans
          .filter((plan) => plan.onSale)
          .map((plan) => (
            <label key={plan.code}>
              <input type="checkbox" value={plan.code} {...form.register('plans')} /> {plan.name.en} (
              {plan.code})
            </label>
          ))}
        {errors.plans?.message && (
          <p className="field__error" role="alert">
            {errors.plans.message}
          </p>
        )}
      </fieldset>
      {errors.root?.server && <FormError>{errors.root.server.message}</FormError>}
      <div className="admin-grid-actions">
        <button
          type="submit"
          className="button button--primary"
          disabled={isSubmitting}
          aria-busy={isSubmitting}
        >
          {t('offers.create')}
        </button>
      </div>
    </form>
  );
}
