import {
  PLAN_DESCRIPTION_MAX,
  PLAN_NAME_MAX,
  PLAN_PERIODS,
  PLAN_PRICE_MAX,
  PLAN_SEATS,
  type PlanCreate,
  type PlanCreateInput,
  planCreateSchema,
} from '@tunes/shared/catalog';
import { API_ERROR_CODES } from '@tunes/shared/error-codes';
import { PREMIUM_OFFERS } from '@tunes/shared/premium-rules';
import { TRIAL_DAYS_MAX } from '@tunes/shared/trials';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { FormError, FormField, TextField } from '@/components/form-field';
import { showFailure } from '../../forms';
import { planCall, planResolver } from './plan-api';

const resolver = planResolver(planCreateSchema);

const DEFAULTS: PlanCreateInput = {
  code: '',
  offer: 'premium',
  nameEn: '',
  nameMn: '',
  descriptionEn: '',
  descriptionMn: '',
  price: 6900,
  months: 1,
  seats: 1,
  trialDays: 0,
};

/** Admin: a new plan, in English and Mongolian, on sale at once and last in the order. */
export function NewPlanForm() {
  const { t } = useTranslation('admin');
  const form = useForm<PlanCreateInput, unknown, PlanCreate>({ resolver, defaultValues: DEFAULTS });
  const { errors, isSubmitting } = form.formState;

  const create = form.handleSubmit(async (plan) => {
    try {
      await planCall('/plans', 'POST', plan);
      toast.success(t('plans.created', { code: plan.code }));
      form.reset(DEFAULTS);
    } catch (failure) {
      showFailure(form, failure, { [API_ERROR_CODES.planExists]: 'code' });
    }
  });

  const text = (name: 'nameEn' | 'nameMn' | 'descriptionEn' | 'descriptionMn', max: number) => (
    <TextField
      id={`plan-${name}`}
      label={t(`plans.fields.${name}`)}
      error={errors[name]?.message}
      lang={name.endsWith('Mn') ? 'mn' : 'en'}
      maxLength={max}
      {...form.register(name)}
    />
  );

  return (
    <form className="admin-section admin-grid-form" noValidate onSubmit={create} aria-labelledby="plan-new">
      <h2 id="plan-new" className="admin-subtitle">
        {t('plans.new')}
      </h2>
      <TextField
        id="plan-code"
        label={t('plans.fields.code')}
        hint={t('plans.hints.code')}
        error={errors.code?.message}
        autoCapitalize="characters"
        maxLength={40}
        {...form.register('code')}
      />
      <TextField
        id="plan-offer"
        label={t('plans.fields.offer')}
        hint={t('plans.hints.offer')}
        error={errors.offer?.message}
        list="plan-offers"
        maxLength={40}
        {...form.register('offer')}
      />
      <datalist id="plan-offers">
        {PREMIUM_OFFERS.map((offer) => (
          <option key={offer} value={offer} />
        ))}
      </datalist>
      {text('nameEn', PLAN_NAME_MAX)}
      {text('nameMn', PLAN_NAME_MAX)}
      {text('descriptionEn', PLAN_DESCRIPTION_MAX)}
      {text('descriptionMn', PLAN_DESCRIPTION_MAX)}
      <TextField
        id="plan-price"
        label={t('plans.fields.price')}
        error={errors.price?.message}
        type="number"
        inputMode="numeric"
        min={1}
        max={PLAN_PRICE_MAX}
        {...form.register('price', { valueAsNumber: true })}
      />
      <FormField id="plan-months" label={t('plans.fields.months')} error={errors.months?.message}>
        {(control) => (
          <select {...control} className="select" {...form.register('months', { valueAsNumber: true })}>
            {PLAN_PERIODS.map((months) => (
              <option key={months} value={months}>
                {t('plans.period', { count: months })}
              </option>
            ))}
          </select>
        )}
      </FormField>
      <TextField
        id="plan-seats"
        label={t('plans.fields.seats')}
        hint={t('plans.hints.seats')}
        error={errors.seats?.message}
        type="number"
        inputMode="numeric"
        min={PLAN_SEATS.min}
        max={PLAN_SEATS.max}
        {...form.register('seats', { valueAsNumber: true })}
      />
      <TextField
        id="plan-trialDays"
        label={t('plans.fields.trialDays')}
        hint={t('plans.hints.trialDays')}
        error={errors.trialDays?.message}
        type="number"
        inputMode="numeric"
        min={0}
        max={TRIAL_DAYS_MAX}
        {...form.register('trialDays', { valueAsNumber: true })}
      />
      {errors.root?.server && <FormError>{errors.root.server.message}</FormError>}
      <div className="admin-grid-actions">
        <button
          type="submit"
          className="button button--primary"
          disabled={isSubmitting}
          aria-busy={isSubmitting}
        >
          {t('plans.create')}
        </button>
      </div>
    </form>
  );
}
