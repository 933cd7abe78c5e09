import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import uPlot, { type AlignedData, type Options } from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { formatPrice } from '@/lib/format';
import { adminApi } from '../api';
import { QueryState, Table } from '../components';
import { BooksPanel } from './books-panel';
import { ReadinessPanel } from './readiness-panel';

interface Dashboard {
  days: number;
  from: string;
  to: string;
  activeByPlan: { packageCode: string; packageName: string; count: number }[];
  daily: { date: string; new: number; lapsed: number }[];
  revenue: { date: string; method: string; currency: string; amount: number }[];
}

const RANGES = [30, 365] as const;
const COLORS = ['#1ed760', '#ff6b6b', '#6ba8ff', '#f5c542', '#c28bff'];
const CHART_HEIGHT = 260;
const daySeconds = (date: string) => Date.parse(`${date}T00:00:00Z`) / 1000;

/** A uPlot chart as wide as its box, redrawn when the box or the data change. */
function Chart({
  label,
  options,
  data,
}: {
  label: string;
  options: Omit<Options, 'width' | 'height'>;
  data: AlignedData;
}) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const chart = new uPlot({ ...options, width: element.clientWidth, height: CHART_HEIGHT }, data, element);
    const observer = new ResizeObserver(() =>
      chart.setSize({ width: element.clientWidth, height: CHART_HEIGHT }),
    );
    observer.observe(element);
    return () => {
      observer.disconnect();
      chart.destroy();
    };
  }, [options, data]);
  return <div ref={box} className="admin-chart" role="img" aria-label={label} />;
}

const axisStyle = { stroke: '#b4b4bf', grid: { stroke: '#34343f' }, ticks: { stroke: '#34343f' } };

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
  const [charts, setCharts] = useState<ReturnType<typeof buildCharts> | null>(null);
  useEffect(() => {
    if (dashboard.data) setCharts(buildCharts(dashboard.data, (key) => t(key)));
  }, [dashboard.data, t]);

  const data = dashboard.data;
  const methods = data ? [...new Set(data.revenue.map((row) => `${row.method}|${row.currency}`))] : [];
  const totalOf = (key: string) =>
    data?.revenue
      .filter((row) => `${row.method}|${row.currency}` === key)
      .reduce((sum, row) => sum + row.amount, 0) ?? 0;

  return (
    <>
      <div className="admin-topline">
        <h1 className="admin-title">{t('dashboard.title')}</h1>
        <fieldset className="admin-segmented">
          <legend className="visually-hidden">{t('dashboard.range')}</legend>
          {RANGES.map((range) => (
            <label key={range}>
              <input type="radio" name="range" checked={days === range} onChange={() => setDays(range)} />
              {t('dashboard.days', { count: range })}
            </label>
          ))}
        </fieldset>
      </div>
      <ReadinessPanel />
      <QueryState pending={dashboard.isPending} error={dashboard.error} />
      {data && (
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
                  <dt>{t('dashboard.revenue-by', { method: methodName(method, t) })}</dt>
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
            {charts && <Chart label={t('dashboard.by-plan')} {...charts.plans} />}
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
          <section className="admin-section" aria-labelledby="chart-daily">
            <h2 id="chart-daily" className="admin-subtitle">
              {t('dashboard.new-lapsed')}
            </h2>
            {charts && <Chart label={t('dashboard.new-lapsed')} {...charts.daily} />}
          </section>
          <section className="admin-section" aria-labelledby="chart-revenue">
            <h2 id="chart-revenue" className="admin-subtitle">
              {t('dashboard.revenue')}
            </h2>
            {charts && <Chart label={t('dashboard.revenue')} {...charts.revenue} />}
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
                      <td>{methodName(row.method, t)}</td>
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

type Translate = (
  key:
    | 'methods.card'
    | 'methods.qpay'
    | 'methods.voucher'
    | 'dashboard.new'
    | 'dashboard.lapsed'
    | 'dashboard.active',
) => string;

function methodName(
  method: string,
  t: (key: 'methods.card' | 'methods.qpay' | 'methods.voucher') => string,
): string {
  return method === 'card' || method === 'qpay' || method === 'voucher' ? t(`methods.${method}`) : method;
}

/** The three charts' options and data (uPlot takes columns: x first, then one per series). */
function buildCharts(data: Dashboard, t: Translate) {
  const bars = uPlot.paths.bars?.({ size: [0.6, 60] });
  const names = data.activeByPlan.map((row) => row.packageName);
  const plans = {
    options: {
      scales: { x: { time: false, range: [-0.5, Math.max(names.length - 0.5, 0.5)] as [number, number] } },
      axes: [
        {
          ...axisStyle,
          splits: () => names.map((_, index) => index),
          values: (_: uPlot, splits: number[]) => splits.map((index) => names[index] ?? ''),
        },
        axisStyle,
      ],
      series: [
        {},
        {
          label: t('dashboard.active'),
          stroke: COLORS[0],
          fill: `${COLORS[0]}99`,
          paths: bars,
          points: { show: false },
        },
      ],
      legend: { show: false },
    } satisfies Omit<Options, 'width' | 'height'>,
    data: [
      data.activeByPlan.map((_, index) => index),
      data.activeByPlan.map((row) => row.count),
    ] as AlignedData,
  };
  const x = data.daily.map((row) => daySeconds(row.date));
  const daily = {
    options: {
      axes: [axisStyle, axisStyle],
      series: [
        {},
        { label: t('dashboard.new'), stroke: COLORS[0], width: 2 },
        { label: t('dashboard.lapsed'), stroke: COLORS[1], width: 2 },
      ],
    } satisfies Omit<Options, 'width' | 'height'>,
    data: [x, data.daily.map((row) => row.new), data.daily.map((row) => row.lapsed)] as AlignedData,
  };
  const methods = [...new Set(data.revenue.map((row) => row.method))];
  const revenue = {
    options: {
      axes: [axisStyle, { ...axisStyle, size: 70 }],
      series: [
        {},
        ...methods.map((method, index) => ({
          label: methodName(method, t),
          stroke: COLORS[index % COLORS.length],
          fill: `${COLORS[index % COLORS.length]}55`,
          paths: bars,
        })),
      ],
    } satisfies Omit<Options, 'width' | 'height'>,
    data: [
      x,
      ...methods.map((method) =>
        data.daily.map((day) =>
          data.revenue
            .filter((row) => row.date === day.date && row.method === method)
            .reduce((sum, row) => sum + row.amount, 0),
        ),
      ),
    ] as AlignedData,
  };
  return { plans, daily, revenue };
}
