import { useQuery } from '@tanstack/react-query';
import type { RefundAnswer } from '@tunes/shared/console';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { formatPrice } from '@/lib/format';
import { adminApi, type Role } from '../api';
import { ConfirmedAction, QueryState, Table, When } from '../components';
import { consoleQueryClient } from '../session';
import type { PaymentView, SubscriptionView, UserDetail, UserSummary } from './support-types';

export const EXTEND_MAX_DAYS = 366;
const REASON_MAX = 500;

const nameOf = (user: UserSummary) =>
  [user.firstName, user.lastName].filter(Boolean).join(' ') || user.msisdn || user.email || user.id;

/** Support: one listener's profile, subscriptions, family, payments, messages, and the actions. */
export default function SupportUserPage({ userId, role }: { userId: string; role: Role }) {
  const { t, i18n } = useTranslation('admin');
  const key = ['admin', 'user', userId];
  const detail = useQuery({
    queryKey: key,
    queryFn: () => adminApi<UserDetail>(`/users/${encodeURIComponent(userId)}`),
  });
  const base = `/users/${encodeURIComponent(userId)}`;
  const reload = () => consoleQueryClient.invalidateQueries({ queryKey: key });

  if (!detail.data) return <QueryState pending={detail.isPending} error={detail.error} />;
  const { user, subscriptions, family, payments, messages, activeSessions } = detail.data;

  return (
    <>
      <p>
        <Link href="/support">{t('support.back')}</Link>
      </p>
      <h1 className="admin-title">{nameOf(user)}</h1>
      <section aria-labelledby="profile-title" className="admin-section">
        <h2 id="profile-title" className="admin-subtitle">
          {t('support.profile')}
        </h2>
        <dl className="admin-facts">
          <dt>{t('fields.id')}</dt>
          <dd>{user.id}</dd>
          <dt>{t('fields.phone')}</dt>
          <dd>{user.msisdn ?? '—'}</dd>
          <dt>{t('fields.email')}</dt>
          <dd>{user.email ?? '—'}</dd>
          <dt>{t('fields.language')}</dt>
          <dd>{user.language}</dd>
          <dt>{t('fields.created')}</dt>
          <dd>
            <When at={user.createdAt} />
          </dd>
          <dt>{t('support.sessions')}</dt>
          <dd>{activeSessions}</dd>
        </dl>
        {user.deleted && <p className="admin-badge">{t('support.deleted')}</p>}
        <ConfirmedAction
          label={t('support.end-sessions')}
          title={t('support.end-sessions')}
          danger
          run={async () => {
            const { ended } = await adminApi<{ ended: number }>(`${base}/sessions/end`, {
              method: 'POST',
              json: {},
            });
            await reload();
            return t('support.sessions-ended', { count: ended });
          }}
        >
          <p>{t('support.end-sessions-question')}</p>
        </ConfirmedAction>
      </section>

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

      <section aria-labelledby="family-title" className="admin-section">
        <h2 id="family-title" className="admin-subtitle">
          {t('support.family')}
        </h2>
        {family.length === 0 ? (
          <p>{t('support.no-family')}</p>
        ) : (
          family.map((group) => (
            <div key={group.subscriptionId}>
              <p>
                {t('support.owner')}:{' '}
                <Link href={`/support/users/${group.owner.id}`}>{nameOf(group.owner)}</Link>
              </p>
              <p>{t('support.members', { members: group.members.length, seats: group.seats })}</p>
              <ul>
                {group.members.map((member) => (
                  <li key={member.id}>
                    <Link href={`/support/users/${member.id}`}>{nameOf(member)}</Link>
                  </li>
                ))}
              </ul>
            </div>
          ))
        )}
      </section>

      <section aria-labelledby="payments-title" className="admin-section">
        <h2 id="payments-title" className="admin-subtitle">
          {t('support.payments')}
        </h2>
        {payments.length === 0 ? (
          <p>{t('support.no-payments')}</p>
        ) : (
          <Table caption={t('support.payments')}>
            <thead>
              <tr>
                <th scope="col">{t('fields.date')}</th>
                <th scope="col">{t('fields.plan')}</th>
                <th scope="col">{t('fields.amount')}</th>
                <th scope="col">{t('fields.method')}</th>
                <th scope="col">{t('fields.status')}</th>
                <th scope="col">{t('fields.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {payments.map((payment) => (
                <tr key={payment.invoiceId}>
                  <td>
                    <When at={payment.paidAt ?? payment.createdAt} />
                  </td>
                  <td>{payment.packageName}</td>
                  <td>{formatPrice(payment.amount, payment.currency, i18n.language)}</td>
                  <td>{t(`methods.${payment.method}`)}</td>
                  <td>
                    {t(`payment-statuses.${payment.status}`)}
                    {payment.receiptUrl && (
                      <>
                        {' · '}
                        <a href={payment.receiptUrl} target="_blank" rel="noreferrer">
                          {t('support.receipt')}
                        </a>
                      </>
                    )}
                  </td>
                  <td className="admin-actions">
                    {payment.paidAt && (
                      <ConfirmedAction
                        label={t('support.resend')}
                        title={t('support.resend')}
                        run={async () => {
                          const { sentTo } = await adminApi<{ sentTo: string[] }>(
                            `${base}/payments/${encodeURIComponent(payment.invoiceId)}/resend-receipt`,
                            { method: 'POST', json: {} },
                          );
                          await reload();
                          return t('support.resent', { to: sentTo.join(', ') });
                        }}
                      >
                        <p>{t('support.resend-question')}</p>
                      </ConfirmedAction>
                    )}
                    {role === 'admin' &&
                      (payment.status === 'paid' || payment.status === 'partly_refunded') &&
                      payment.method !== 'voucher' && <RefundAction payment={payment} reload={reload} />}
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
      </section>

      <section aria-labelledby="messages-title" className="admin-section">
        <h2 id="messages-title" className="admin-subtitle">
          {t('support.messages')}
        </h2>
        {messages.length === 0 ? (
          <p>{t('support.no-messages')}</p>
        ) : (
          <Table caption={t('support.messages')}>
            <thead>
              <tr>
                <th scope="col">{t('fields.date')}</th>
                <th scope="col">{t('fields.channel')}</th>
                <th scope="col">{t('fields.to')}</th>
                <th scope="col">{t('fields.text')}</th>
              </tr>
            </thead>
            <tbody>
              {messages.map((message) => (
                <tr key={`${message.createdAt}-${message.to}-${message.text.slice(0, 20)}`}>
                  <td>
                    <When at={message.createdAt} />
                  </td>
                  <td>{t(`channels.${message.channel}`)}</td>
                  <td>{message.to}</td>
                  <td className="admin-message">{message.text}</td>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
      </section>
    </>
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
  const { t, i18n } = useTranslation('admin');
  const [days, setDays] = useState(30);
  const [immediately, setImmediately] = useState(false);
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
        <ConfirmedAction
          label={t('support.extend')}
          title={t('support.extend-title', { plan: subscription.packageName })}
          run={async () => {
            const { subscription: next } = await adminApi<{ subscription: SubscriptionView }>(
              `${path}/extend`,
              {
                method: 'POST',
                json: { days },
              },
            );
            await reload();
            return t('support.extended', { date: new Date(next.endDate).toLocaleDateString(i18n.language) });
          }}
        >
          <div className="field">
            <label className="field__label" htmlFor={`extend-${subscription.id}`}>
              {t('support.extend-days')}
            </label>
            <input
              id={`extend-${subscription.id}`}
              className="input"
              type="number"
              min={1}
              max={EXTEND_MAX_DAYS}
              value={days}
              onChange={(event) =>
                setDays(Math.min(EXTEND_MAX_DAYS, Math.max(1, Number(event.target.value) || 1)))
              }
            />
          </div>
        </ConfirmedAction>
        {active && (
          <ConfirmedAction
            label={t('support.cancel')}
            title={t('support.cancel-title', { plan: subscription.packageName })}
            danger
            run={async () => {
              await adminApi(`${path}/cancel`, { method: 'POST', json: { immediately } });
              await reload();
              return t('support.cancelled');
            }}
          >
            <p>{t('support.cancel-question')}</p>
            <label className="admin-check">
              <input
                type="checkbox"
                checked={immediately}
                onChange={(event) => setImmediately(event.target.checked)}
              />
              {t('support.cancel-now')}
            </label>
          </ConfirmedAction>
        )}
      </td>
    </tr>
  );
}

/**
 * An admin's refund: what was paid and given back so far, and the amount to give now (all that
 * is left unless changed; QPay gives back a whole payment only).
 */
function RefundAction({ payment, reload }: { payment: PaymentView; reload(): Promise<void> }) {
  const { t, i18n } = useTranslation('admin');
  const price = (amount: number) => formatPrice(amount, payment.currency, i18n.language);
  const left = Math.max(0, payment.amount - payment.refunded);
  const whole = payment.method === 'qpay';
  const [amount, setAmount] = useState(left);
  const [reason, setReason] = useState('');
  const id = `refund-${payment.invoiceId}`;
  return (
    <ConfirmedAction
      label={t('refund.action')}
      title={t('refund.title')}
      danger
      run={async () => {
        const refund = await adminApi<RefundAnswer>(
          `/payments/${encodeURIComponent(payment.invoiceId)}/refund`,
          {
            method: 'POST',
            json: { amount, reason: reason.trim() || t('refund.default-reason') },
          },
        );
        await reload();
        return refund.status === 'refunded'
          ? t('refund.done', { amount: price(refund.amount) })
          : t('refund.done-partly', { amount: price(refund.amount), remaining: price(refund.remaining) });
      }}
    >
      <p>{t('refund.question')}</p>
      <dl className="admin-facts">
        <dt>{t('refund.paid')}</dt>
        <dd>{price(payment.amount)}</dd>
        <dt>{t('refund.already')}</dt>
        <dd>{price(payment.refunded)}</dd>
        <dt>{t('refund.left')}</dt>
        <dd>{price(left)}</dd>
      </dl>
      <div className="field">
        <label className="field__label" htmlFor={`${id}-amount`}>
          {t('refund.amount')}
        </label>
        <input
          id={`${id}-amount`}
          className="input"
          type="number"
          inputMode="numeric"
          min={1}
          max={left}
          step={1}
          value={amount}
          readOnly={whole}
          aria-describedby={`${id}-amount-hint`}
          onChange={(event) =>
            setAmount(Math.min(left, Math.max(1, Math.trunc(Number(event.target.value)) || 1)))
          }
        />
        <span id={`${id}-amount-hint`} className="field__hint">
          {whole
            ? t('refund.qpay-whole')
            : t('refund.amount-hint', { max: price(left), amount: price(amount) })}
        </span>
      </div>
      <div className="field">
        <label className="field__label" htmlFor={id}>
          {t('refund.reason')}
        </label>
        <textarea
          id={id}
          className="textarea"
          maxLength={REASON_MAX}
          value={reason}
          onChange={(event) => setReason(event.target.value)}
        />
      </div>
    </ConfirmedAction>
  );
}
