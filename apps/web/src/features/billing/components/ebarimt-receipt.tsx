import { useTranslation } from 'react-i18next';
import { userMessage } from '@/lib/api-error';
import { useEbarimtReceipt } from '../api/get-ebarimt-receipt';
import { CompanyReceiptForm } from './company-receipt-form';
import styles from './ebarimt.module.css';

/**
 * The e-barimt (Mongolian VAT e-receipt) of a paid invoice (product.md §12): its bill id, the
 * lottery number people keep, and its QR (an image the server renders); a company receipt names
 * the company's registry number and name instead of a lottery number. Until the server has
 * issued it, a notice that it is on its way. Rendered on /success and on the printable receipt.
 */
export function EbarimtReceipt({ invoiceId }: { invoiceId: string }) {
  const { t } = useTranslation('ebarimt');
  const receipt = useEbarimtReceipt(invoiceId);
  if (receipt.error) {
    return (
      <p className={styles.notice} role="alert">
        {userMessage(receipt.error)}
      </p>
    );
  }
  const ebarimt = receipt.data?.receipt?.ebarimt;
  const companyReceipt = receipt.data?.companyReceipt;
  return (
    <section className={`card ${styles.ebarimt}`} aria-labelledby={`ebarimt-${invoiceId}`}>
      <h2 id={`ebarimt-${invoiceId}`} className={styles.title}>
        {t('title')}
      </h2>
      {!ebarimt ? (
        <p className={styles.notice} role="status">
          <span className="spinner" aria-hidden="true" /> {t('issuing')}
        </p>
      ) : (
        <div className={styles.body}>
          <dl className={styles.facts}>
            {ebarimt.lottery && (
              <>
                <dt>{t('lottery')}</dt>
                <dd className={styles.lottery}>{ebarimt.lottery}</dd>
              </>
            )}
            {ebarimt.company && (
              <>
                <dt>{t('company')}</dt>
                <dd>{ebarimt.company.name}</dd>
                <dt>{t('registry')}</dt>
                <dd>{ebarimt.company.registry}</dd>
              </>
            )}
            <dt>{t('bill-id')}</dt>
            <dd className={styles.billId}>{ebarimt.billId}</dd>
          </dl>
          {receipt.data?.ebarimtQr && (
            <img
              className={styles.qr}
              src={receipt.data.ebarimtQr}
              alt={t('qr-alt')}
              width={160}
              height={160}
            />
          )}
        </div>
      )}
      {companyReceipt?.status === 'pending' && companyReceipt.company && (
        <p className={styles.notice} role="status">
          {t('company-pending', { name: companyReceipt.company.name })}
        </p>
      )}
      {companyReceipt?.status === 'none' && <CompanyReceiptForm invoiceId={invoiceId} />}
    </section>
  );
}
