import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';

/**
 * The Prometheus families of product.md §15 (operations), in one registry per process. Counters
 * are per process, as Prometheus expects: it sums them across the instances it scrapes.
 */
export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry, prefix: 'tunes_' });

export const httpRequests = new Counter({
  name: 'tunes_http_requests_total',
  help: 'HTTP requests answered, by method, route pattern and status',
  labelNames: ['method', 'route', 'status'] as const,
  registers: [metricsRegistry],
});

export const httpDuration = new Histogram({
  name: 'tunes_http_request_duration_seconds',
  help: 'Time to answer an HTTP request, by method, route pattern and status',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  registers: [metricsRegistry],
});

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
