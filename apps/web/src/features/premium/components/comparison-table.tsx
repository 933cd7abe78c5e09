import { useTranslation } from 'react-i18next';
import { COMPARISON_FEATURES } from '../features';
import { Cross, Tick } from './icons';
import styles from './premium.module.css';

/** Free vs Premium (product.md §2): seven rows; Free has only the first feature, Premium all. */
export function ComparisonTable() {
  const { t } = useTranslation('premium');
  return (
    <section className={styles.compare} aria-labelledby="compare-title">
      <h2 id="compare-title">{t('compare.title')}</h2>
      <table className={styles.table}>
        <thead>
          <tr>
            <th scope="col">{t('compare.feature')}</th>
            <th scope="col">{t('compare.free')}</th>
            <th scope="col">{t('compare.premium')}</th>
          </tr>
        </thead>
        <tbody>
          {COMPARISON_FEATURES.map((feature, index) => (
            <tr key={feature}>
              <th scope="row">{t(feature)}</th>
              <td className={index === 0 ? styles.yes : styles.no}>
                {index === 0 ? (
                  <Tick label={t('compare.included')} />
                ) : (
                  <Cross label={t('compare.not-included')} />
                )}
              </td>
              <td className={styles.yes}>
                <Tick label={t('compare.included')} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
