import uPlot, { type AlignedData, type Options, type Range } from 'uplot';
import type { Dashboard } from './types';

const COLORS = ['#1ed760', '#ff6b6b', '#6ba8ff', '#f5c542', '#c28bff'];
const daySeconds = (date: string) => Date.parse(`${date}T00:00:00Z`) / 1000;
const axisStyle = { stroke: '#b4b4bf', grid: { stroke: '#34343f' }, ticks: { stroke: '#34343f' } };

/**
 * Counts and money start at 0: uPlot's own range starts near the smallest value (a day of one
 * new subscription drew its axis from 1), which makes small differences look large.
 */
const fromZero: Range.Function = (_chart, _min, max) => [0, max > 0 ? Math.ceil(max * 1.1) : 1];
const countScales = { y: { range: fromZero } };

export interface ChartSpec {
  options: Omit<Options, 'width' | 'height'>;
  data: AlignedData;
}

export type MethodName = (method: string) => string;

/** The three charts' options and data (uPlot takes columns: x first, then one per series). */
export function buildCharts(
  data: Dashboard,
  labels: { active: string; new: string; lapsed: string },
  methodName: MethodName,
): { plans: ChartSpec; daily: ChartSpec; revenue: ChartSpec } {
  const bars = uPlot.paths.bars?.({ size: [0.6, 60] });
  const names = data.activeByPlan.map((row) => row.packageName);
  const plans: ChartSpec = {
    options: {
      scales: {
        ...countScales,
        x: { time: false, range: [-0.5, Math.max(names.length - 0.5, 0.5)] as [number, number] },
      },
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
          label: labels.active,
          stroke: COLORS[0],
          fill: `${COLORS[0]}99`,
          paths: bars,
          points: { show: false },
        },
      ],
      legend: { show: false },
    },
    data: [data.activeByPlan.map((_, index) => index), data.activeByPlan.map((row) => row.count)],
  };
  const x = data.daily.map((row) => daySeconds(row.date));
  const daily: ChartSpec = {
    options: {
      scales: countScales,
      axes: [axisStyle, axisStyle],
      series: [
        {},
        { label: labels.new, stroke: COLORS[0], width: 2 },
        { label: labels.lapsed, stroke: COLORS[1], width: 2 },
      ],
    },
    data: [x, data.daily.map((row) => row.new), data.daily.map((row) => row.lapsed)],
  };
  const methods = [...new Set(data.revenue.map((row) => row.method))];
  const revenue: ChartSpec = {
    options: {
      scales: countScales,
      axes: [axisStyle, { ...axisStyle, size: 70 }],
      series: [
        {},
        ...methods.map((method, index) => ({
          label: methodName(method),
          stroke: COLORS[index % COLORS.length],
          fill: `${COLORS[index % COLORS.length]}55`,
          paths: bars,
        })),
      ],
    },
    data: [
      x,
      ...methods.map((method) =>
        data.daily.map((day) =>
          data.revenue
            .filter((row) => row.date === day.date && row.method === method)
            .reduce((sum, row) => sum + row.amount, 0),
        ),
      ),
    ],
  };
  return { plans, daily, revenue };
}
