import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { JobQueue } from '../lib/job-queue.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The job queue (lib/job-queue.ts); modules register their kinds of work on it. */
    jobs: JobQueue;
  }
}

/**
 * Decorates the app with its job queue. Once the app is ready and the database migrated, this
 * process's workers start (every PAYMENT_CHECK_INTERVAL_SECONDS a scan for due work; 0 = only
 * by hand, as tests do); on close they stop and finish what they hold.
 */
export const jobs = fp(
  async (app: FastifyInstance) => {
    const { deps } = app;
    const queue = new JobQueue(deps.db, deps.dbKind, deps.clock, app.log.child({ module: 'jobs' }));
    app.decorate('jobs', queue);
    // Ended limit windows go with every scan (lib/throttle.ts `sweep`).
    queue.beforeScan((now) => deps.throttle.sweep(now));
    app.addHook('onReady', async () => {
      deps.databaseReady
        .then(
          () => queue.startWorkers(deps.config.PAYMENT_CHECK_INTERVAL_SECONDS),
          () => {},
        )
        .catch((error: unknown) => app.log.error({ err: error }, 'job workers did not start'));
    });
    app.addHook('onClose', async () => {
      await queue.stop();
    });
  },
  { name: 'jobs', dependencies: ['deps'] },
);
