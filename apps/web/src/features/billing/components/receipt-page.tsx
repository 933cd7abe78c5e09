import type { Receipt } from '@tunes/shared/billing';
import { formatPhoneForDisplay } from '@tunes/shared/phone-number';
import { localized } from '@tunes/shared/premium-rules';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { PageTitle } from '@/components/page';
import { formatDate, formatPrice } from '@/lib/format';
import { useReceipt } from '../api/get-receipt';
import { EbarimtReceipt } from './ebarimt-receipt';
import styles from './receipt.module.css';

/**
 * /receipts/{invoiceId} (product.md §12): the printable receipt of one paid invoice: seller,
 * buyer, plan, period, amount with the VAT it includes, card, date and invoice number; the
 * e-barimt (bill id, lottery number, QR; a company's registry number and name) once issued.
 * With an offer (decision 0044), the plan's price and the discount above the amount paid.
 */
export function ReceiptPage({ invoiceId }: { invoiceId: string }) {
  const { t } = useTranslation('billing');
  const receipt = useReceipt(invoiceId);
  return (
    <div className={`page page--narrow ${styles.page}`}>
      <div className={styles.toolbar}>
        <Link href="/profile">{t('receipt.back')}</Link>
        {receipt.data && (
          <button type="button" className="button button--primary" onClick={() => window.print()}>
            {t('receipt.print')}
          </button>
        )}
      </div>
      <article className={`card ${styles.receipt}`} aria-label={t('receipt.title')}>
        <PageTitle className={styles.title}>{t('receipt.title')}</PageTitle>
        {receipt.isPending && <p role="status">{t('receipt.loading')}</p>}
        {receipt.isError && <p role="alert">{receipt.error.message}</p>}
        {receipt.data && <ReceiptDetails receipt={receipt.data} />}
      </article>
    </div>
  );
}

function ReceiptDetails({ receipt }: { receipt: Receipt }) {
  const { t, i18n } = useTranslation('billing');
  const language = i18n.language;
  const price = (amount: number) => formatPrice(amount, receipt.currency, language);
  // Written as the site writes numbers elsewhere ("+976 88112233"), not as stored.
  const phone = receipt.buyer.phone && formatPhoneForDisplay(receipt.buyer.phone);
  return (
    <>
      <div className={styles.parties}>
        <section aria-labelledby="receipt-seller">
          <h2 id="receipt-seller" className={styles.label}>
            {t('receipt.seller')}
          </h2>
          <p className={styles.party}>
            <strong>{receipt.seller.name}</strong>
            <span>{t('receipt.registry', { registry: receipt.seller.registry })}</span>
          </p>
        </section>
        <section aria-labelledby="receipt-buyer">
          <h2 id="receipt-buyer" className={styles.label}>
            {t('receipt.buyer')}
          </h2>
          <p className={styles.party}>
            {receipt.buyer.name && (
              <strong>{receipt.buyer.name === receipt.buyer.phone ? phone : receipt.buyer.name}</strong>
            )}
            {/* A listener without a name is named by their number or address: said once. */}
            {phone && receipt.buyer.phone !== receipt.buyer.name && <span>{phone}</span>}
            {receipt.buyer.email && receipt.buyer.email !== receipt.buyer.name && (
              <span>{receipt.buyer.email}</span>
            )}
          </p>
        </section>
      </div>

      <dl className={styles.lines}>
        <div>
          <dt>{t('receipt.plan')}</dt>
          <dd>{localized(receipt.packageName, language)}</dd>
        </div>
        <div>
          <dt>{t('receipt.kind')}</dt>
          <dd>{t(`history.kind.${receipt.kind}`)}</dd>
        </div>
        {receipt.period && (
          <div>
            <dt>{t('receipt.period')}</dt>
            <dd>
              {t('receipt.period-value', {
                start: formatDate(receipt.period.start, language),
                end: formatDate(receipt.period.end, language),
              })}
            </dd>
          </div>
        )}
        {receipt.paidAt && (
          <div>
            <dt>{t('receipt.date')}</dt>
            <dd>{formatDate(receipt.paidAt, language)}</dd>
          </div>
        )}
        {receipt.card && (
          <div>
            <dt>{t('receipt.card')}</dt>
            <dd>{t('card.label', { brand: receipt.card.brand, last4: receipt.card.last4 })}</dd>
          </div>
        )}
        <div>
          <dt>{t('receipt.invoice')}</dt>
          <dd className={styles.invoice}>{receipt.invoiceId}</dd>
        </div>
        {receipt.discount > 0 && (
          <>
            <div>
              <dt>{t('receipt.list-price')}</dt>
              <dd>{price(receipt.amount + receipt.discount)}</dd>
            </div>
            <div>
              <dt>{t('receipt.discount')}</dt>
              <dd>{t('receipt.discount-value', { amount: price(receipt.discount) })}</dd>
            </div>
          </>
        )}
        <div className={styles.total}>
          <dt>{t('receipt.amount')}</dt>
          <dd>{price(receipt.amount)}</dd>
        </div>
        <div>
          <dt>{t('receipt.vat')}</dt>
          <dd>{price(receipt.vat)}</dd>
        </div>
      </dl>

      <EbarimtReceipt invoiceId={receipt.invoiceId} />
      <p className={styles.thanks}>{t('receipt.thanks')}</p>
    </>
  );
}
