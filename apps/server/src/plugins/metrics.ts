import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Gauge, Registry } from 'prom-client';
import { unauthorized } from '../lib/errors.js';
import { metricsRegistry, requestMetrics } from '../lib/metrics.js';
import { lastMismatchCount } from '../modules/billing/books-store.js';
import '../modules/notifications/schema.js';

const sameToken = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

/**
 * `GET /metrics` (product.md §15): the Prometheus text format for a caller with
 * `Authorization: Bearer $METRICS_TOKEN`; 401 without it; not mounted when the token is unset.
 * Every request is counted and timed by its route pattern (never its raw URL, which would
 * carry ids and codes); the job queue's depth, the outbox backlog and the database pool are
 * read when Prometheus scrapes.
 */
export const metrics = fp(
  async (app: FastifyInstance) => {
    const { deps } = app;
    // Each route records under its own pattern, known when it is added: reading
    // `request.routeOptions` builds a new options object on every call.
    const recorder = (route: string) => (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
      requestMetrics.record(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
      done();
    };
    app.addHook('onRoute', (route) => {
      route.onResponse = [route.onResponse ?? []].flat().concat(recorder(route.url));
    });
    const unmatched = recorder('unmatched');
    app.addHook('onResponse', (request, reply, done) => {
      if (request.is404) return unmatched(request, reply, done);
      done();
    });

    const token = deps.config.METRICS_TOKEN;
    if (!token) return;

    // This app's own readings; the process-wide families live in lib/metrics.ts.
    const readings = new Registry();
    new Gauge({
      name: 'tunes_job_queue_depth',
      help: 'Jobs waiting or running, by queue',
      labelNames: ['queue'],
      registers: [readings],
      async collect() {
        this.reset();
        for (const [queue, depth] of Object.entries(await app.jobs.depth())) this.set({ queue }, depth);
      },
    });
    new Gauge({
      name: 'tunes_outbox_backlog',
      help: 'Messages not delivered yet: waiting for a retry, or given up',
      labelNames: ['state'],
      registers: [readings],
      async collect() {
        const rows = await deps.db
          .selectFrom('outbox_messages')
          .select((eb) => [
            eb.fn.count<number>('id').filterWhere('next_attempt_at', 'is not', null).as('retrying'),
            eb.fn
              .count<number>('id')
              .filterWhere((w) =>
                w.and([w('next_attempt_at', 'is', null), w('delivery_error', 'is not', null)]),
              )
              .as('failed'),
          ])
          .where('delivered_at', 'is', null)
          .executeTakeFirstOrThrow();
        this.set({ state: 'retrying' }, Number(rows.retrying));
        this.set({ state: 'failed' }, Number(rows.failed));
      },
    });
    new Gauge({
      name: 'tunes_db_pool_connections',
      help: 'Database pool connections by state (PostgreSQL; PGlite is one connection)',
      labelNames: ['state'],
      registers: [readings],
      collect() {
        const stats = deps.dbPoolStats?.();
        if (!stats) return;
        this.set({ state: 'total' }, stats.total);
        this.set({ state: 'idle' }, stats.idle);
        this.set({ state: 'waiting' }, stats.waiting);
      },
    });
    new Gauge({
      name: 'tunes_books_mismatches',
      help: 'Mismatches found by the last whole check of the books (the ledger against invoices, providers, periods)',
      registers: [readings],
      async collect() {
        this.set(await lastMismatchCount(deps.db));
      },
    });

    app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
      const given = request.headers.authorization ?? '';
      if (!given.startsWith('Bearer ') || !sameToken(given.slice(7), token)) {
        throw unauthorized('A metrics token is required.');
      }
      const text = `${await metricsRegistry.metrics()}\n${await readings.metrics()}`;
      return reply.header('cache-control', 'no-store').type(metricsRegistry.contentType).send(text);
    });
  },
  { name: 'metrics', dependencies: ['deps', 'jobs'] },
);
