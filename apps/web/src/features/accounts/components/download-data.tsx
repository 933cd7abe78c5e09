import { useTranslation } from 'react-i18next';
import { FormError } from '@/components/form-field';
import { toast } from '@/lib/toast';
import { useDownloadMyData } from '../api/export-data';
import styles from './self-service.module.css';

/** Download my data (product.md §14; the right of access of Mongolia's 2021 personal data law). */
export function DownloadData() {
  const { t } = useTranslation('accounts');
  const download = useDownloadMyData();
  return (
    <section className={`card ${styles.card}`} aria-labelledby="data-title">
      <h2 id="data-title" className={styles.heading}>
        {t('data.title')}
      </h2>
      <p className={styles.intro}>{t('data.intro')}</p>
      {download.isError && <FormError>{download.error.message}</FormError>}
      <button
        type="button"
        className="button button--ghost"
        disabled={download.isPending}
        aria-busy={download.isPending}
        onClick={() => download.mutate(undefined, { onSuccess: () => toast.success(t('data.done')) })}
      >
        {download.isPending ? t('data.downloading') : t('data.download')}
      </button>
    </section>
  );
}
