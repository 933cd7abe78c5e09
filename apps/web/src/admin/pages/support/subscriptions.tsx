import { cancelSchema, extendSchema } from '@tunes/shared/console';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { FormField, TextField } from '@/components/form-field';
import { adminApi } from '../../api';
import { ConfirmedAction, Table, When } from '../../components';
import { checked, schemaResolver } from '../../forms';
import type { SubscriptionView } from './types';

export const EXTEND_MAX_DAYS = 366;
const extendResolver = schemaResolver(extendSchema);
const cancelResolver = schemaResolver(cancelSchema);

/** Support: a listener's subscriptions, each to extend or cancel. */
export function SubscriptionsSection({
  subscriptions,
  base,
  reload,
}: {
  subscriptions: SubscriptionView[];
  base: string;
  reload(): Promise<void>;
}) {
  const { t } = useTranslation('admin');
  return (
    <section aria-labelledby="subscriptions-title" className="admin-section">
      <h2 id="subscriptions-title" className="admin-subtitle">
        {t('support.subscriptions')}
      </h2>
      {subscriptions.length === 0 ? (
        <p>{t('support.no-subscriptions')}</p>
      ) : (
        <Table caption={t('support.subscriptions')}>
          <thead>
            <tr>
              <th scope="col">{t('fields.plan')}</th>
              <th scope="col">{t('fields.status')}</th>
              <th scope="col">{t('fields.start')}</th>
              <th scope="col">{t('fields.end')}</th>
              <th scope="col">{t('fields.renews')}</th>
              <th scope="col">{t('fields.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {subscriptions.map((subscription) => (
              <SubscriptionRow
                key={subscription.id}
                subscription={subscription}
                base={base}
                reload={reload}
              />
            ))}
          </tbody>
        </Table>
      )}
    </section>
  );
}

function SubscriptionRow({
  subscription,
  base,
  reload,
}: {
  subscription: SubscriptionView;
  base: string;
  reload(): Promise<void>;
}) {
  const { t } = useTranslation('admin');
  const path = `${base}/subscriptions/${encodeURIComponent(subscription.id)}`;
  const active = subscription.status !== 'ended';
  return (
    <tr>
      <td>
        {subscription.packageName}
        {subscription.role === 'member' && <span className="admin-badge">{t('support.member')}</span>}
      </td>
      <td>{t(`statuses.${subscription.status}`)}</td>
      <td>
        <When at={subscription.startDate} />
      </td>
      <td data-testid="subscription-end">
        <When at={subscription.endDate} />
      </td>
      <td>{subscription.autoRenew ? t('yes') : t('no')}</td>
      <td className="admin-actions">
        <ExtendAction subscription={subscription} path={path} reload={reload} />
        {active && <CancelAction subscription={subscription} path={path} reload={reload} />}
      </td>
    </tr>
  );
}

interface ActionProps {
  subscription: SubscriptionView;
  path: string;
  reload(): Promise<void>;
}

/** More days for a subscription (capped by role on the server, docs/console-api.md §4). */
function ExtendAction({ subscription, path, reload }: ActionProps) {
  const { t, i18n } = useTranslation('admin');
  const form = useForm<z.input<typeof extendSchema>, unknown, z.output<typeof extendSchema>>({
    resolver: extendResolver,
    defaultValues: { days: 30 },
  });
  return (
    <ConfirmedAction
      label={t('support.extend')}
      title={t('support.extend-title', { plan: subscription.packageName })}
      run={async () => {
        const { days } = await checked(form);
        const { subscription: next } = await adminApi<{ subscription: SubscriptionView }>(`${path}/extend`, {
          method: 'POST',
          json: { days },
        });
        await reload();
        return t('support.extended', { date: new Date(next.endDate).toLocaleDateString(i18n.language) });
      }}
    >
      <TextField
        id={`extend-${subscription.id}`}
        label={t('support.extend-days')}
        error={form.formState.errors.days?.message}
        type="number"
        inputMode="numeric"
        min={1}
        max={EXTEND_MAX_DAYS}
        {...form.register('days', { valueAsNumber: true })}
      />
    </ConfirmedAction>
  );
}

/** No renewal, or the period ends now. */
function CancelAction({ subscription, path, reload }: ActionProps) {
  const { t } = useTranslation('admin');
  const form = useForm<z.input<typeof cancelSchema>, unknown, z.output<typeof cancelSchema>>({
    resolver: cancelResolver,
    defaultValues: { immediately: false },
  });
  return (
    <ConfirmedAction
      label={t('support.cancel')}
      title={t('support.cancel-title', { plan: subscription.packageName })}
      danger
      run={async () => {
        const values = await checked(form);
        await adminApi(`${path}/cancel`, { method: 'POST', json: values });
        await reload();
        return t('support.cancelled');
      }}
    >
      <p>{t('support.cancel-question')}</p>
      <FormField
        id={`cancel-now-${subscription.id}`}
        label={t('support.cancel-now')}
        error={form.formState.errors.immediately?.message}
        className="admin-check-field"
      >
        {(control) => <input {...control} type="checkbox" {...form.register('immediately')} />}
      </FormField>
    </ConfirmedAction>
  );
}
