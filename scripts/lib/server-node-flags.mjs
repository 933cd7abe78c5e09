/**
 * The V8 flags the server runs with in production: `npm start`, the Dockerfile's CMD (which
 * repeats them) and the bench, so the bench measures the server as it is run.
 *
 * A larger young generation: a busy server allocates a short-lived object graph per request, and
 * with V8's default semi-space each scavenge came every few hundred requests. At 128 MB the
 * cached landing answer cost 32 instead of 58 µs of CPU and the profile's p99 on PostgreSQL fell
 * from 28 to 21 ms (docs/performance.md, "Round four"); the price is up to ~384 MB of young
 * generation per process under load.
 */
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=128'];
