import { Counter, collectDefaultMetrics, type Metric, Registry } from 'prom-client';

/**
 * The Prometheus families of product.md §15 (operations), in one registry per process. Counters
 * are per process, as Prometheus expects: it sums them across the instances it scrapes.
 */
export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry, prefix: 'tunes_' });

const DURATION_BUCKETS = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/** The answers of one method, route pattern and status: a count, a sum and duration buckets. */
interface RequestTally {
  labels: { method: string; route: string; status: string };
  count: number;
  seconds: number;
  /** Answers per bucket (not cumulative); the last slot is +Inf. */
  buckets: number[];
}

/**
 * Every answered request is counted and timed by method, route pattern and status. prom-client's
 * counter and histogram build and hash a label key on each observation (a measurable share of a
 * cached answer's CPU, `npm run bench`); here one string key finds a plain tally, and the two
 * families are written out from the tallies when Prometheus scrapes.
 */
export class RequestMetrics {
  readonly #tallies = new Map<string, RequestTally>();

  record(method: string, route: string, status: number, seconds: number): void {
    const key = `${status} ${method} ${route}`;
    let tally = this.#tallies.get(key);
    if (!tally) {
      tally = {
        labels: { method, route, status: String(status) },
        count: 0,
        seconds: 0,
        buckets: new Array(DURATION_BUCKETS.length + 1).fill(0),
      };
      this.#tallies.set(key, tally);
    }
    tally.count++;
    tally.seconds += seconds;
    let bucket = 0;
    while (bucket < DURATION_BUCKETS.length && seconds > (DURATION_BUCKETS[bucket] as number)) bucket++;
    tally.buckets[bucket] = (tally.buckets[bucket] as number) + 1;
  }

  /** prom-client's shape of a metric family, for its registry to print. */
  #family(name: string, help: string, type: 'counter' | 'histogram', values: () => MetricValue[]) {
    return {
      name,
      help,
      type,
      aggregator: 'sum' as const,
      get: () => ({ name, help, type, aggregator: 'sum', values: values() }),
      reset: () => {},
    };
  }

  registerIn(registry: Registry): void {
    const tallies = () => [...this.#tallies.values()];
    const families = [
      this.#family(
        'tunes_http_requests_total',
        'HTTP requests answered, by method, route pattern and status',
        'counter',
        () => tallies().map((tally) => ({ labels: tally.labels, value: tally.count })),
      ),
      this.#family(
        'tunes_http_request_duration_seconds',
        'Time to answer an HTTP request, by method, route pattern and status',
        'histogram',
        () =>
          tallies().flatMap((tally) => {
            let cumulative = 0;
            const name = 'tunes_http_request_duration_seconds';
            return [
              ...[...DURATION_BUCKETS, '+Inf' as const].map((le, index) => {
                cumulative += tally.buckets[index] as number;
                return { metricName: `${name}_bucket`, labels: { le, ...tally.labels }, value: cumulative };
              }),
              { metricName: `${name}_sum`, labels: tally.labels, value: tally.seconds },
              { metricName: `${name}_count`, labels: tally.labels, value: tally.count },
            ];
          }),
      ),
    ];
    // The registry prints any object with prom-client's `get()`; these are not its classes.
    for (const family of families) registry.registerMetric(family as unknown as Metric);
  }
}

interface MetricValue {
  metricName?: string;
  labels: Record<string, string | number>;
  value: number;
}

export const requestMetrics = new RequestMetrics();
requestMetrics.registerIn(metricsRegistry);

export const jobFailures = new Counter({
  name: 'tunes_job_failures_total',
  help: 'Background jobs that threw, by queue (the item stays due and is tried again)',
  labelNames: ['queue'] as const,
  registers: [metricsRegistry],
});

export const jobsRun = new Counter({
  name: 'tunes_jobs_run_total',
  help: 'Background jobs finished, by queue',
  labelNames: ['queue'] as const,
  registers: [metricsRegistry],
});

export const payments = new Counter({
  name: 'tunes_payments_total',
  help: 'Payment outcomes settled by this process, by method, kind and outcome',
  labelNames: ['method', 'kind', 'outcome'] as const,
  registers: [metricsRegistry],
});
