import { useQueryClient } from '@tanstack/react-query';
import type { Invoice } from '@tunes/shared/premium';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { PageTitle } from '@/components/page';
import { formatPrice } from '@/lib/format';
import { useInvoice } from '../api/get-invoice';
import styles from './premium.module.css';

/**
 * /success (product.md §2, issue 19): says what the invoice in the address actually did, as the
 * API reports it. Only a paid invoice of this user says 'subscription active'; no id, someone
 * else's invoice or a declined one never does.
 */
export function PaymentSuccess({ invoiceId }: { invoiceId: string }) {
  const invoice = useInvoice(invoiceId);
  if (invoiceId === '') return <PaymentNotFound />;
  if (invoice.isPending) return <CheckingPayment />;
  if (invoice.isError) {
    const status = invoice.error.status;
    if (status === 403 || status === 404) return <PaymentNotFound />;
    return <CheckFailed message={invoice.error.message} onRetry={() => void invoice.refetch()} />;
  }
  return <InvoiceOutcome invoice={invoice.data} />;
}

function InvoiceOutcome({ invoice }: { invoice: Invoice }) {
  if (invoice.status === 'paid') return <SubscriptionActive invoice={invoice} />;
  if (invoice.status === 'created') return <PaymentPending />;
  return <FailedOrRefunded invoice={invoice} />;
}

/** What a payment that could not be used became: given back (capture-once on the server). */
function useRefundedAmount(invoice: Invoice) {
  const { i18n } = useTranslation('premium');
  return invoice.refunded > 0 ? formatPrice(invoice.refunded, invoice.currency, i18n.language) : null;
}

function SubscriptionActive({ invoice }: { invoice: Invoice }) {
  const { invoiceId } = invoice;
  const { t } = useTranslation('premium');
  const refunded = useRefundedAmount(invoice);
  const queryClient = useQueryClient();
  // The new subscription hides the Premium link and shows on the profile.
  useEffect(() => {
    void queryClient.invalidateQueries({ queryKey: ['profile'] });
  }, [queryClient]);
  return (
    <div className={`page page--narrow ${styles.result}`}>
      <PageTitle>{t('success.title')}</PageTitle>
      <p>{t('success.text')}</p>
      {refunded && <p role="status">{t('success.refunded-note', { amount: refunded })}</p>}
      <div className={styles.resultActions}>
        <Link href="/profile" className="button button--primary">
          {t('success.profile')}
        </Link>
        <Link href={`/receipts/${encodeURIComponent(invoiceId)}`} className="button button--ghost">
          {t('success.receipt')}
        </Link>
      </div>
    </div>
  );
}

function CheckingPayment() {
  const { t } = useTranslation('premium');
  return (
    <div className={`page page--narrow ${styles.result}`}>
      <PageTitle>{t('success.checking')}</PageTitle>
      <span className="spinner" aria-hidden="true" />
    </div>
  );
}

/** The provider has not settled the invoice yet; the query asks again until it has. */
function PaymentPending() {
  const { t } = useTranslation('premium');
  return (
    <div className={`page page--narrow ${styles.result}`}>
      <PageTitle>{t('success.pending.title')}</PageTitle>
      <p className={styles.loading} role="status">
        <span className="spinner" aria-hidden="true" />
        {t('success.pending.text')}
      </p>
      <Link href="/profile" className="button button--ghost">
        {t('success.profile')}
      </Link>
    </div>
  );
}

function PaymentNotFound() {
  const { t } = useTranslation('premium');
  return (
    <div className={`page page--narrow ${styles.result}`}>
      <PageTitle>{t('success.not-found.title')}</PageTitle>
      <p>{t('success.not-found.text')}</p>
      <div className={styles.resultActions}>
        <Link href="/profile" className="button button--primary">
          {t('success.profile')}
        </Link>
        <Link href="/premium" className="button button--ghost">
          {t('failed.retry')}
        </Link>
      </div>
    </div>
  );
}

function CheckFailed({ message, onRetry }: { message: string; onRetry: () => void }) {
  const { t } = useTranslation('premium');
  return (
    <div className={`page page--narrow ${styles.result}`}>
      <PageTitle>{t('success.not-found.title')}</PageTitle>
      <p role="alert">{message}</p>
      <button type="button" className="button button--primary" onClick={onRetry}>
        {t('success.retry')}
      </button>
    </div>
  );
}

/** An unpaid invoice: cancelled or declined, or paid too late and given back. */
function FailedOrRefunded({ invoice }: { invoice: Invoice }) {
  const { t } = useTranslation('premium');
  const refunded = useRefundedAmount(invoice);
  if (!refunded) return <PaymentFailed />;
  return (
    <div className={`page page--narrow ${styles.result}`}>
      <PageTitle>{t('failed.refunded-title')}</PageTitle>
      <p role="status">{t('failed.refunded-text', { amount: refunded })}</p>
      <Link href="/premium" className="button button--ghost">
        {t('failed.retry')}
      </Link>
    </div>
  );
}

/**
 * /failed?invoiceId=… for a signed-in listener: what the invoice became (a late payment given
 * back says so); without an invoice, the payment cancelled notice.
 */
export function PaymentOutcomeFailed({ invoiceId }: { invoiceId: string }) {
  const invoice = useInvoice(invoiceId);
  if (invoice.data && invoice.data.status !== 'created') return <InvoiceOutcome invoice={invoice.data} />;
  return <PaymentFailed />;
}

/** /failed (product.md §2): the payment cancelled notice; also /success for an unpaid invoice. */
export function PaymentFailed() {
  const { t } = useTranslation('premium');
  return (
    <div className={`page page--narrow ${styles.result}`}>
      <PageTitle>{t('failed.title')}</PageTitle>
      <p role="alert">{t('failed.text')}</p>
      <Link href="/premium" className="button button--ghost">
        {t('failed.retry')}
      </Link>
    </div>
  );
}
