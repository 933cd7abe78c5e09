import { useTranslation } from 'react-i18next';
import { formatPrice } from '@/lib/format';
import { Table } from '../../components';
import type { Dashboard } from './types';

/**
 * What the catalog earned in the period (issue 38): first-time trials started, converted and
 * cancelled; revenue (captured less refunded) by plan and by offer.
 */
export function CatalogPanel({ dashboard }: { dashboard: Dashboard }) {
  const { t, i18n } = useTranslation('admin');
  const money = (amount: number) => formatPrice(amount, 'MNT', i18n.language);
  const { trials, revenueByPlan = [], revenueByOffer = [] } = dashboard;
  return (
    <>
      {trials && (
        <section className="admin-section" aria-labelledby="dashboard-trials">
          <h2 id="dashboard-trials" className="admin-subtitle">
            {t('dashboard.trials.title')}
          </h2>
          <dl className="admin-stats">
            {(['started', 'converted', 'cancelled'] as const).map((key) => (
              <div key={key}>
                <dt>{t(`dashboard.trials.${key}`)}</dt>
                <dd data-testid={`stat-trials-${key}`}>{trials[key]}</dd>
              </div>
            ))}
          </dl>
        </section>
      )}
      <section className="admin-section" aria-labelledby="dashboard-revenue-plan">
        <h2 id="dashboard-revenue-plan" className="admin-subtitle">
          {t('dashboard.revenue-by-plan')}
        </h2>
        {revenueByPlan.length === 0 ? (
          <p className="admin-muted">{t('dashboard.no-revenue')}</p>
        ) : (
          <Table caption={t('dashboard.revenue-by-plan')}>
            <thead>
              <tr>
                <th scope="col">{t('fields.plan')}</th>
                <th scope="col">{t('fields.amount')}</th>
              </tr>
            </thead>
            <tbody>
              {revenueByPlan.map((row) => (
                <tr key={row.MerchantCode}>
                  <th scope="row">
                    {row.name}
                    <div className="admin-muted">{row.MerchantCode}</div>
                  </th>
                  <td>{money(row.amount)}</td>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
      </section>
      <section className="admin-section" aria-labelledby="dashboard-revenue-offer">
        <h2 id="dashboard-revenue-offer" className="admin-subtitle">
          {t('dashboard.revenue-by-offer')}
        </h2>
        {revenueByOffer.length === 0 ? (
          <p className="admin-muted">{t('dashboard.no-offer-revenue')}</p>
        ) : (
          <Table caption={t('dashboard.revenue-by-offer')}>
            <thead>
              <tr>
                <th scope="col">{t('offers.fields.code')}</th>
                <th scope="col">{t('offers.redeemed')}</th>
                <th scope="col">{t('fields.amount')}</th>
              </tr>
            </thead>
            <tbody>
              {revenueByOffer.map((row) => (
                <tr key={row.code}>
                  <th scope="row">{row.code}</th>
                  <td>{row.redemptions}</td>
                  <td>{money(row.amount)}</td>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
      </section>
    </>
  );
}
