import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { ChartSpec } from './charts';

const CHART_HEIGHT = 260;

/**
 * A uPlot chart as wide as its box, redrawn when the box or the data change. The box names the
 * value axis' range it drew (`data-y-from`, `data-y-to`), as a screen reader's table does the values.
 */
export function Chart({ label, options, data }: ChartSpec & { label: string }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const drawn = (chart: uPlot) => {
      element.dataset.yFrom = String(chart.scales.y?.min ?? '');
      element.dataset.yTo = String(chart.scales.y?.max ?? '');
    };
    const chart = new uPlot(
      {
        ...options,
        width: element.clientWidth,
        height: CHART_HEIGHT,
        hooks: { ready: [drawn], setScale: [(drawnChart, key) => key === 'y' && drawn(drawnChart)] },
      },
      data,
      element,
    );
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
