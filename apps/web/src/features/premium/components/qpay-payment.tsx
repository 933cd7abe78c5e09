import { useQueryClient } from '@tanstack/react-query';
import { localized } from '@tunes/shared/premium-rules';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import { userMessage } from '@/lib/api-error';
import { formatPrice } from '@/lib/format';
import { useInvoicePlan } from '../api/get-invoice-plan';
import { usePaymentStatus } from '../api/get-payment-status';
import { useQpayPayment } from '../api/pay-invoice';
import { useIsPhone } from '../hooks/use-is-phone';
import styles from './qpay.module.css';

/**
 * A QPay payment in progress (product.md §12): on a computer the QR with the amount, on a phone
 * the bank-app buttons (each can switch to the other), and its live status. The page moves to
 * /success or /failed by itself when the payment settles; the invoice id in the address keeps it
 * across a reload. A part payment QPay reports (PARTIAL) is said as such: it pays nothing.
 */
export function QpayPayment({ invoiceId }: { invoiceId: string }) {
  const { t, i18n } = useTranslation('premium');
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const payment = useQpayPayment(invoiceId);
  const answer = usePaymentStatus(invoiceId).data;
  const plan = useInvoicePlan(invoiceId);
  const status = answer?.status ?? 'pending';
  const phone = useIsPhone();
  const [switched, setSwitched] = useState(false);
  const showBanks = phone !== switched;

  useEffect(() => {
    if (status === 'pending') return;
    const query = new URLSearchParams({ invoiceId }).toString();
    if (status === 'paid') void queryClient.invalidateQueries({ queryKey: ['profile'] });
    navigate(`${status === 'paid' ? '/success' : '/failed'}?${query}`, { replace: true });
  }, [status, invoiceId, navigate, queryClient]);

  if (payment.isPending) {
    return (
      <p className={styles.box} role="status">
        <span className="spinner" aria-hidden="true" /> {t('qpay.loading')}
      </p>
    );
  }
  if (!payment.data) {
    return (
      <p className={`card ${styles.box}`} role="alert">
        {payment.error ? userMessage(payment.error) : t('qpay.load-failed')}
      </p>
    );
  }
  const { qrImage, shortUrl, deeplinks, amount, currency } = payment.data;
  const price = formatPrice(amount, currency, i18n.language);
  return (
    <section className={`card ${styles.box}`} aria-labelledby="qpay-title">
      <h2 id="qpay-title">{t('qpay.title')}</h2>
      {plan && (
        <p className={styles.buying}>
          {t('qpay.buying', {
            plan: localized(plan.Name, i18n.language),
            count: plan.DurationMonths,
          })}
        </p>
      )}
      <p className={styles.amount}>
        {t('qpay.amount')} <strong>{price}</strong>
      </p>
      {showBanks ? (
        <>
          <h3 className={styles.banksTitle}>{t('qpay.banks')}</h3>
          <ul className={styles.banks}>
            {deeplinks.map((bank) => (
              <li key={bank.link}>
                <a className={styles.bank} href={bank.link}>
                  <img src={bank.logo} alt="" width={40} height={40} />
                  <span>
                    <span className={styles.bankName}>{bank.name}</span>
                    <span className={styles.bankDescription}>{bank.description}</span>
                  </span>
                </a>
              </li>
            ))}
          </ul>
        </>
      ) : (
        <figure className={styles.qr}>
          <img
            src={`data:image/png;base64,${qrImage}`}
            alt={t('qpay.qr-alt', { amount: price })}
            width={256}
            height={256}
          />
          <figcaption>{t('qpay.scan')}</figcaption>
        </figure>
      )}
      <p className={styles.links}>
        <button type="button" className="link-button" onClick={() => setSwitched((value) => !value)}>
          {showBanks ? t('qpay.show-qr') : t('qpay.show-banks')}
        </button>
        <a href={shortUrl} target="_blank" rel="noopener noreferrer">
          {t('qpay.open-link')}
        </a>
      </p>
      <p className={styles.status} role="status" aria-live="polite">
        {status === 'pending' ? (
          <>
            <span className="spinner" aria-hidden="true" /> {t('qpay.waiting')}
          </>
        ) : status === 'paid' ? (
          t('qpay.paid')
        ) : (
          t('qpay.failed')
        )}
      </p>
      {status === 'pending' && answer?.partlyPaid ? (
        <p className={styles.partial} role="status">
          {t('qpay.partly-paid', {
            paid: formatPrice(answer.partlyPaid.amount, answer.partlyPaid.currency, i18n.language),
            amount: price,
          })}{' '}
          <Link href="/contact">{t('qpay.contact')}</Link>
        </p>
      ) : null}
    </section>
  );
}
