import type { PaymentEntry } from '@tunes/shared/billing';
import { localized } from '@tunes/shared/premium-rules';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { formatDate, formatPrice } from '@/lib/format';
import styles from './billing.module.css';

/** The listener's payments, newest first, each paid one with a link to its printable receipt. */
export function PaymentHistory({ payments }: { payments: readonly PaymentEntry[] }) {
  const { t } = useTranslation('billing');
  return (
    <div className={styles.block}>
      <h3 id="payment-history-title" className={styles.subheading}>
        {t('history.title')}
      </h3>
      <ul className={styles.payments} aria-labelledby="payment-history-title">
        {payments.map((payment) => (
          <PaymentRow key={payment.invoiceId} payment={payment} />
        ))}
      </ul>
    </div>
  );
}

function PaymentRow({ payment }: { payment: PaymentEntry }) {
  const { t, i18n } = useTranslation('billing');
  const { t: tEbarimt } = useTranslation('ebarimt');
  const ebarimt = payment.receipt?.ebarimt;
  const language = i18n.language;
  const when = payment.paidAt ?? payment.createdAt;
  const date = formatDate(when, language);
  const plan = localized(payment.packageName, language);
  return (
    <li className={styles.payment}>
      <span className={styles.paymentWhat}>
        <span className={styles.choiceName}>{plan}</span>
        <span className={styles.muted}>{t(`history.kind.${payment.kind}`)}</span>
        {ebarimt && (
          <span className={styles.muted}>
            {ebarimt.company
              ? tEbarimt('history-company', { name: ebarimt.company.name })
              : tEbarimt('history-issued')}
          </span>
        )}
      </span>
      <time dateTime={when} className={styles.paymentDate}>
        {date}
      </time>
      <span className={styles.paymentAmount}>{formatPrice(payment.amount, payment.currency, language)}</span>
      <span className={styles.paymentStatus} data-status={payment.status}>
        {t(`history.status.${payment.status}`)}
      </span>
      <span className={styles.paymentReceipt}>
        {payment.receipt && (
          <Link href={payment.receipt.url}>
            {t('history.receipt')}
            <span className="visually-hidden"> {t('history.receipt-for', { plan, date })}</span>
          </Link>
        )}
      </span>
    </li>
  );
}
