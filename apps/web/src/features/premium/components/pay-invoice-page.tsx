import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { PageTitle } from '@/components/page';
import { userMessage } from '@/lib/api-error';
import { useSession } from '@/lib/auth';
import { formatPrice } from '@/lib/format';
import { useInvoice, usePayInvoiceByCard } from '../api/pay-invoice';
import styles from './premium.module.css';
import { QpayPayment } from './qpay-payment';

/**
 * /pay/{invoiceId} (product.md §12): where a renewal link leads a subscriber who pays by hand —
 * the invoice's amount and a choice of QPay (the QR or bank apps, right here) or a card (the
 * gateway page). Signed-in owners only.
 */
export function PayInvoicePage({ invoiceId }: { invoiceId: string }) {
  const { t } = useTranslation('premium');
  const session = useSession();
  return (
    <div className={`page page--narrow ${styles.result}`}>
      <PageTitle>{t('pay-invoice.title')}</PageTitle>
      {session ? (
        <PayInvoice invoiceId={invoiceId} />
      ) : (
        <p>
          {t('pay-invoice.login')}{' '}
          <Link href="/login" className="button button--primary">
            {t('pay-invoice.login-link')}
          </Link>
        </p>
      )}
    </div>
  );
}

function PayInvoice({ invoiceId }: { invoiceId: string }) {
  const { t, i18n } = useTranslation('premium');
  const invoice = useInvoice(invoiceId);
  const card = usePayInvoiceByCard();
  const [qpay, setQpay] = useState(false);
  if (invoice.isPending) return <p role="status">{t('loading')}</p>;
  if (!invoice.data) return <p role="alert">{userMessage(invoice.error)}</p>;
  if (invoice.data.status !== 'created') {
    return (
      <>
        <p role="status">
          {invoice.data.status === 'paid' ? t('pay-invoice.paid') : t('pay-invoice.closed')}
        </p>
        <Link href="/profile" className="button button--ghost">
          {t('pay-invoice.profile')}
        </Link>
      </>
    );
  }
  if (qpay) return <QpayPayment invoiceId={invoiceId} />;
  return (
    <>
      <p>{t('pay-invoice.text')}</p>
      <p>
        {t('pay-invoice.amount')}{' '}
        <strong>{formatPrice(invoice.data.amount, invoice.data.currency, i18n.language)}</strong>
      </p>
      <div className={styles.payChoices}>
        <button type="button" className="button button--primary" onClick={() => setQpay(true)}>
          {t('pay-invoice.qpay')}
        </button>
        <button
          type="button"
          className="button button--ghost"
          onClick={() => card.mutate(invoiceId)}
          disabled={card.isPending || card.isSuccess}
          aria-busy={card.isPending}
        >
          {t('pay-invoice.card')}
        </button>
      </div>
      {card.error && <p role="alert">{userMessage(card.error)}</p>}
    </>
  );
}
