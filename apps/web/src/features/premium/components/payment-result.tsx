import { useQueryClient } from '@tanstack/react-query';
import type { InvoiceStatus } from '@tunes/shared/premium-rules';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { PageTitle } from '@/components/page';
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
  return <InvoiceOutcome status={invoice.data.status} invoiceId={invoiceId} />;
}

function InvoiceOutcome({ status, invoiceId }: { status: InvoiceStatus; invoiceId: string }) {
  if (status === 'paid') return <SubscriptionActive invoiceId={invoiceId} />;
  if (status === 'created') return <PaymentPending />;
  return <PaymentFailed />;
}

function SubscriptionActive({ invoiceId }: { invoiceId: string }) {
  const { t } = useTranslation('premium');
  const queryClient = useQueryClient();
  // The new subscription hides the Premium link and shows on the profile.
  useEffect(() => {
    void queryClient.invalidateQueries({ queryKey: ['profile'] });
  }, [queryClient]);
  return (
    <div className={`page page--narrow ${styles.result}`}>
      <PageTitle>{t('success.title')}</PageTitle>
      <p>{t('success.text')}</p>
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
