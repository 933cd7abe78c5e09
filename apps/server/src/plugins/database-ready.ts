import type { onRequestHookHandler } from 'fastify';

/**
 * An onRequest hook for the routes that use the database: until it is migrated and seeded
 * (seconds on a first start, while PGlite creates its cluster) their calls wait, while the
 * site's pages are served at once. Once ready, the hook costs one boolean test.
 */
export function waitForDatabase(databaseReady: Promise<void>): onRequestHookHandler {
  let ready = false;
  databaseReady.then(
    () => {
      ready = true;
    },
    () => {},
  );
  return (_request, _reply, done) => {
    if (ready) return done();
    databaseReady.then(() => done(), done);
  };
}
