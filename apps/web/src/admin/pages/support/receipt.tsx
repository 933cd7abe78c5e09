import { useQuery } from '@tanstack/react-query';
import type { Receipt } from '@tunes/shared/billing';
import { localized } from '@tunes/shared/premium-rules';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { formatDate, formatPrice } from '@/lib/format';
import { adminApi } from '../../api';
import { QueryState } from '../../components';

/**
 * Support: a paid invoice's receipt as the listener's printable one shows it
 * (`GET /api/admin/users/{id}/payments/{invoiceId}/receipt`): the listener's own /receipts/…
 * page needs the listener's sign-in, so the console shows it here.
 */
export default function SupportReceiptPage({ userId, invoiceId }: { userId: string; invoiceId: string }) {
  const { t } = useTranslation('admin');
  const receipt = useQuery({
    queryKey: ['admin', 'receipt', userId, invoiceId],
    queryFn: () =>
      adminApi<Receipt>(
        `/users/${encodeURIComponent(userId)}/payments/${encodeURIComponent(invoiceId)}/receipt`,
      ),
  });
  return (
    <>
      <p>
        <Link href={`/support/users/${encodeURIComponent(userId)}`}>{t('receipt.back')}</Link>
      </p>
      <h1 className="admin-title">{t('receipt.title')}</h1>
      <QueryState pending={receipt.isPending} error={receipt.error} />
      {receipt.data && <ReceiptFacts receipt={receipt.data} />}
    </>
  );
}

function ReceiptFacts({ receipt }: { receipt: Receipt }) {
  const { t, i18n } = useTranslation('admin');
  const language = i18n.language;
  const price = (amount: number) => formatPrice(amount, receipt.currency, language);
  const ebarimt = receipt.receipt?.ebarimt ?? null;
  return (
    <article className="admin-section" aria-label={t('receipt.title')}>
      <dl className="admin-facts">
        <dt>{t('receipt.invoice')}</dt>
        <dd data-testid="receipt-invoice">{receipt.invoiceId}</dd>
        <dt>{t('receipt.seller')}</dt>
        <dd>
          {receipt.seller.name} · {t('receipt.registry', { registry: receipt.seller.registry })}
        </dd>
        <dt>{t('receipt.buyer')}</dt>
        <dd>{[receipt.buyer.name, receipt.buyer.phone, receipt.buyer.email].filter(Boolean).join(' · ')}</dd>
        <dt>{t('fields.plan')}</dt>
        <dd>{localized(receipt.packageName, language)}</dd>
        {receipt.period && (
          <>
            <dt>{t('receipt.period')}</dt>
            <dd>
              {formatDate(receipt.period.start, language)} – {formatDate(receipt.period.end, language)}
            </dd>
          </>
        )}
        {receipt.paidAt && (
          <>
            <dt>{t('receipt.paid')}</dt>
            <dd>{formatDate(receipt.paidAt, language)}</dd>
          </>
        )}
        <dt>{t('fields.method')}</dt>
        <dd>
          {t(`methods.${receipt.method}`)}
          {receipt.card && ` · ${receipt.card.brand} •••• ${receipt.card.last4}`}
        </dd>
        <dt>{t('fields.amount')}</dt>
        <dd data-testid="receipt-amount">{price(receipt.amount)}</dd>
        <dt>{t('receipt.vat')}</dt>
        <dd>{price(receipt.vat)}</dd>
        <dt>{t('receipt.ebarimt')}</dt>
        <dd>
          {ebarimt
            ? [ebarimt.billId, ebarimt.lottery, ebarimt.company?.name].filter(Boolean).join(' · ')
            : t('receipt.no-ebarimt')}
        </dd>
      </dl>
    </article>
  );
}
