import {
  type ConsolePlan,
  PLAN_BADGE_MAX,
  PLAN_PRICE_MAX,
  planBadgeSchema,
  planPriceSchema,
  planTrialRequestSchema,
} from '@tunes/shared/catalog';
import { TRIAL_DAYS_MAX } from '@tunes/shared/trials';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { TextField } from '@/components/form-field';
import { formatDate, formatPrice } from '@/lib/format';
import { ConfirmedAction } from '../../components';
import { checked } from '../../forms';
import { planCall, planResolver } from './plan-api';

const priceResolver = planResolver(planPriceSchema);
const badgeResolver = planResolver(planBadgeSchema);
const trialResolver = planResolver(planTrialRequestSchema);
const path = (plan: ConsolePlan, action: string) => `/plans/${encodeURIComponent(plan.code)}/${action}`;

interface RowProps {
  plan: ConsolePlan;
  /** The plan's place in the list, and a move of it by one place (the whole order is sent). */
  index: number;
  count: number;
  move(index: number, by: -1 | 1): Promise<void>;
  moving: boolean;
}

/** One plan: its terms, what /premium does with it, and the admin's actions on it. */
export function PlanRow({ plan, index, count, move, moving }: RowProps) {
  const { t, i18n } = useTranslation('admin');
  const money = (amount: number) => formatPrice(amount, plan.currency, i18n.language);
  const name = i18n.language === 'mn' ? plan.name.mn : plan.name.en;
  return (
    <tr>
      <td className="admin-actions">
        <button
          type="button"
          className="button button--ghost admin-small"
          aria-label={t('plans.up', { name })}
          disabled={index === 0 || moving}
          onClick={() => void move(index, -1)}
        >
          ↑
        </button>
        <button
          type="button"
          className="button button--ghost admin-small"
          aria-label={t('plans.down', { name })}
          disabled={index === count - 1 || moving}
          onClick={() => void move(index, 1)}
        >
          ↓
        </button>
      </td>
      <th scope="row">
        {name}
        <div className="admin-muted">
          {plan.code} · {plan.offer}
        </div>
        {plan.badge && (
          <div className="admin-muted">{i18n.language === 'mn' ? plan.badge.mn : plan.badge.en}</div>
        )}
        {plan.trialDays > 0 && (
          <div className="admin-muted">{t('plans.trial-days', { count: plan.trialDays })}</div>
        )}
      </th>
      <td>
        {money(plan.price)}
        {plan.pendingPrice && (
          <div className="admin-muted">
            {t('plans.pending-price', {
              previous: money(plan.pendingPrice.previous),
              date: formatDate(plan.pendingPrice.takesEffectAt, i18n.language),
              count: plan.pendingPrice.notices,
            })}
          </div>
        )}
      </td>
      <td>{t('plans.period', { count: plan.months })}</td>
      <td>{plan.seats}</td>
      <td>
        {plan.onSale ? (plan.listed ? t('plans.listed') : t('plans.on-sale-hidden')) : t('plans.retired')}
      </td>
      <td>{plan.subscribers}</td>
      <td className="admin-actions">
        <PriceAction plan={plan} />
        <BadgeAction plan={plan} />
        <TrialAction plan={plan} />
        {plan.onSale ? (
          <ConfirmedAction
            label={t('plans.retire')}
            title={t('plans.retire-title', { name })}
            danger
            run={async () => {
              await planCall(path(plan, 'retire'), 'POST', {});
              return t('plans.retired-now', { name });
            }}
          >
            <p>{t('plans.retire-question')}</p>
          </ConfirmedAction>
        ) : (
          <ConfirmedAction
            label={t('plans.restore')}
            title={t('plans.restore-title', { name })}
            run={async () => {
              await planCall(path(plan, 'restore'), 'POST', {});
              return t('plans.restored', { name });
            }}
          >
            <p>{t('plans.restore-question')}</p>
          </ConfirmedAction>
        )}
      </td>
    </tr>
  );
}

function PriceAction({ plan }: { plan: ConsolePlan }) {
  const { t, i18n } = useTranslation('admin');
  const form = useForm<{ price: number }, unknown, { price: number }>({
    resolver: priceResolver,
    defaultValues: { price: plan.price },
  });
  const name = i18n.language === 'mn' ? plan.name.mn : plan.name.en;
  return (
    <ConfirmedAction
      label={t('plans.price')}
      title={t('plans.price-title', { name })}
      run={async () => {
        const { price } = await checked(form);
        const { change } = await planCall(path(plan, 'price'), 'POST', { price });
        return t('plans.priced', {
          price: formatPrice(price, plan.currency, i18n.language),
          count: change?.notices ?? 0,
          date: change ? formatDate(change.takesEffectAt, i18n.language) : '',
        });
      }}
    >
      <p>{t('plans.price-rule')}</p>
      <TextField
        id={`price-${plan.code}`}
        label={t('plans.fields.price')}
        error={form.formState.errors.price?.message}
        type="number"
        inputMode="numeric"
        min={1}
        max={PLAN_PRICE_MAX}
        {...form.register('price', { valueAsNumber: true })}
      />
    </ConfirmedAction>
  );
}

function BadgeAction({ plan }: { plan: ConsolePlan }) {
  const { t, i18n } = useTranslation('admin');
  const form = useForm<{ en: string; mn: string }, unknown, { en: string; mn: string }>({
    resolver: badgeResolver,
    defaultValues: plan.badge ?? { en: '', mn: '' },
  });
  const { errors } = form.formState;
  const name = i18n.language === 'mn' ? plan.name.mn : plan.name.en;
  return (
    <ConfirmedAction
      label={t('plans.badge')}
      title={t('plans.badge-title', { name })}
      run={async () => {
        const badge = await checked(form);
        await planCall(path(plan, 'badge'), 'PUT', { badge });
        return badge.en ? t('plans.badged', { name }) : t('plans.unbadged', { name });
      }}
    >
      <p>{t('plans.badge-rule')}</p>
      <TextField
        id={`badge-en-${plan.code}`}
        label={t('plans.fields.badgeEn')}
        error={errors.en?.message}
        lang="en"
        maxLength={PLAN_BADGE_MAX}
        {...form.register('en')}
      />
      <TextField
        id={`badge-mn-${plan.code}`}
        label={t('plans.fields.badgeMn')}
        error={errors.mn?.message}
        lang="mn"
        maxLength={PLAN_BADGE_MAX}
        {...form.register('mn')}
      />
    </ConfirmedAction>
  );
}

/** A first-time free trial of the plan (issue 38): its free days, 0 for none. */
function TrialAction({ plan }: { plan: ConsolePlan }) {
  const { t, i18n } = useTranslation('admin');
  const form = useForm<{ trialDays: number }, unknown, { trialDays: number }>({
    resolver: trialResolver,
    defaultValues: { trialDays: plan.trialDays },
  });
  const name = i18n.language === 'mn' ? plan.name.mn : plan.name.en;
  return (
    <ConfirmedAction
      label={t('plans.trial')}
      title={t('plans.trial-title', { name })}
      run={async () => {
        const { trialDays } = await checked(form);
        await planCall(path(plan, 'trial'), 'PUT', { trialDays });
        return trialDays > 0
          ? t('plans.trialed', { name, count: trialDays })
          : t('plans.untrialed', { name });
      }}
    >
      <p>{t('plans.trial-rule')}</p>
      <TextField
        id={`trial-${plan.code}`}
        label={t('plans.fields.trialDays')}
        error={form.formState.errors.trialDays?.message}
        type="number"
        inputMode="numeric"
        min={0}
        max={TRIAL_DAYS_MAX}
        {...form.register('trialDays', { valueAsNumber: true })}
      />
    </ConfirmedAction>
  );
}
