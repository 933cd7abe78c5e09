import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatPrice } from '@/lib/format';
import { adminApi } from '../../api';
import { QueryState, Segmented, Table } from '../../components';
import { BooksPanel } from './books-panel';
import { CatalogPanel } from './catalog-panel';
import { Chart } from './chart';
import { buildCharts } from './charts';
import { ReadinessPanel } from './readiness-panel';
import type { Dashboard } from './types';

const RANGES = [30, 365] as const;

/**
 * Admin: what the site lacks before it can sell (first run), active subscriptions by plan, new
 * and lapsed per day, revenue per day by method.
 */
export default function DashboardPage() {
  const { t, i18n } = useTranslation('admin');
  const [days, setDays] = useState<(typeof RANGES)[number]>(30);
  const dashboard = useQuery({
    queryKey: ['admin', 'dashboard', days],
    queryFn: () => adminApi<Dashboard>('/dashboard', { query: { days } }),
  });
  const methodName = (method: string) =>
    method === 'card' || method === 'qpay' || method === 'voucher' ? t(`methods.${method}`) : method;
  const data = dashboard.data;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the names follow the language (`t`).
  const charts = useMemo(
    () =>
      data &&
      buildCharts(
        data,
        { active: t('dashboard.active'), new: t('dashboard.new'), lapsed: t('dashboard.lapsed') },
        methodName,
      ),
    [data, t],
  );
  const methods = data ? [...new Set(data.revenue.map((row) => `${row.method}|${row.currency}`))] : [];
  const totalOf = (key: string) =>
    data?.revenue
      .filter((row) => `${row.method}|${row.currency}` === key)
      .reduce((sum, row) => sum + row.amount, 0) ?? 0;

  return (
    <>
      <div className="admin-topline">
        <h1 className="admin-title">{t('dashboard.title')}</h1>
        <Segmented
          label={t('dashboard.range')}
          options={RANGES.map((range) => ({ value: range, label: t('dashboard.days', { count: range }) }))}
          value={days}
          onChange={setDays}
        />
      </div>
      <ReadinessPanel />
      <QueryState pending={dashboard.isPending} error={dashboard.error} />
      {data && charts && (
        <>
          <dl className="admin-stats">
            <div>
              <dt>{t('dashboard.active')}</dt>
              <dd data-testid="stat-active">{data.activeByPlan.reduce((sum, row) => sum + row.count, 0)}</dd>
            </div>
            <div>
              <dt>{t('dashboard.new')}</dt>
              <dd data-testid="stat-new">{data.daily.reduce((sum, row) => sum + row.new, 0)}</dd>
            </div>
            <div>
              <dt>{t('dashboard.lapsed')}</dt>
              <dd data-testid="stat-lapsed">{data.daily.reduce((sum, row) => sum + row.lapsed, 0)}</dd>
            </div>
            {methods.map((key) => {
              const [method = '', currency = 'MNT'] = key.split('|');
              return (
                <div key={key}>
                  <dt>{t('dashboard.revenue-by', { method: methodName(method) })}</dt>
                  <dd data-testid={`stat-revenue-${method}`}>
                    {formatPrice(totalOf(key), currency, i18n.language)}
                  </dd>
                </div>
              );
            })}
          </dl>
          <section className="admin-section" aria-labelledby="chart-plans">
            <h2 id="chart-plans" className="admin-subtitle">
              {t('dashboard.by-plan')}
            </h2>
            <Chart label={t('dashboard.by-plan')} {...charts.plans} />
            <Table caption={t('dashboard.by-plan')}>
              <thead>
                <tr>
                  <th scope="col">{t('fields.plan')}</th>
                  <th scope="col">{t('dashboard.active')}</th>
                </tr>
              </thead>
              <tbody>
                {data.activeByPlan.map((row) => (
                  <tr key={row.packageCode}>
                    <td>{row.packageName}</td>
                    <td>{row.count}</td>
                  </tr>
                ))}
              </tbody>
            </Table>
          </section>
          <CatalogPanel dashboard={data} />
          <section className="admin-section" aria-labelledby="chart-daily">
            <h2 id="chart-daily" className="admin-subtitle">
              {t('dashboard.new-lapsed')}
            </h2>
            <Chart label={t('dashboard.new-lapsed')} {...charts.daily} />
          </section>
          <section className="admin-section" aria-labelledby="chart-revenue">
            <h2 id="chart-revenue" className="admin-subtitle">
              {t('dashboard.revenue')}
            </h2>
            <Chart label={t('dashboard.revenue')} {...charts.revenue} />
            <details>
              <summary>{t('dashboard.as-table')}</summary>
              <Table caption={t('dashboard.revenue')}>
                <thead>
                  <tr>
                    <th scope="col">{t('fields.date')}</th>
                    <th scope="col">{t('fields.method')}</th>
                    <th scope="col">{t('fields.amount')}</th>
                  </tr>
                </thead>
                <tbody>
                  {data.revenue.map((row) => (
                    <tr key={`${row.date}-${row.method}-${row.currency}`}>
                      <td>{row.date}</td>
                      <td>{methodName(row.method)}</td>
                      <td>{formatPrice(row.amount, row.currency, i18n.language)}</td>
                    </tr>
                  ))}
                </tbody>
              </Table>
            </details>
          </section>
        </>
      )}
      <BooksPanel />
    </>
  );
}
