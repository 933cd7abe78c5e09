import { useTranslation } from 'react-i18next';
import styles from './premium.module.css';

/**
 * Checkout's "save my card for renewals" (product.md §12): on by default, with what it means in
 * plain words either way, so nobody is charged again without having seen it.
 */
export function SaveCardChoice({
  checked,
  onChange,
}: {
  checked: boolean;
  onChange: (save: boolean) => void;
}) {
  const { t } = useTranslation('premium');
  return (
    <div className={`card ${styles.saveCard}`}>
      <input
        id="save-card"
        type="checkbox"
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
        aria-describedby="save-card-consequence"
      />
      <div>
        <label htmlFor="save-card" className={styles.saveCardLabel}>
          {t('save-card.label')}
        </label>
        <p id="save-card-consequence" className={styles.saveCardText}>
          {checked ? t('save-card.on') : t('save-card.off')}
        </p>
      </div>
    </div>
  );
}
