import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { formatPrice } from '@/lib/format';
import { adminApi, type Role } from '../../api';
import { ConfirmedAction, Table, When } from '../../components';
import { RefundAction } from './refund-action';
import type { PaymentView } from './types';

/** The console's own page of a paid invoice's receipt (the listener's /receipts/… needs their sign-in). */
export const receiptPath = (userId: string, invoiceId: string) =>
  `/support/users/${encodeURIComponent(userId)}/receipts/${encodeURIComponent(invoiceId)}`;

/** Support: a listener's payments, the receipt of each paid one, resend and (admin) refund. */
export function PaymentsSection({
  userId,
  payments,
  base,
  role,
  reload,
}: {
  userId: string;
  payments: PaymentView[];
  base: string;
  role: Role;
  reload(): Promise<void>;
}) {
  const { t, i18n } = useTranslation('admin');
  return (
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
                      <Link href={receiptPath(userId, payment.invoiceId)}>{t('support.receipt')}</Link>
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
  );
}
