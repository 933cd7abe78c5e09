import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { SERVER_NODE_FLAGS } from '../../scripts/lib/server-node-flags.mjs';
import { freePort, startNode, stop, waitFor } from './processes.mjs';

export const JWT_SECRET = randomBytes(32).toString('hex');

/**
 * The production build of the server (`apps/server/dist/server.js`, NODE_ENV=production) on
 * 127.0.0.1, on PGlite (`dataDir`) or PostgreSQL (`databaseUrl`). Resolves once `/` answers,
 * with the milliseconds that took (the start-up budget of performance.md).
 */
export async function startAppServer(root, { dataDir, databaseUrl, webDir }) {
  const port = await freePort();
  const secret = () => randomBytes(32).toString('hex');
  const startedAt = Date.now();
  const server = startNode(
    path.join(root, 'apps/server/dist/server.js'),
    [],
    {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      // More Node flags to try on the server (an A/B of two bench runs); production's are below.
      ...(process.env.BENCH_SERVER_NODE_OPTIONS
        ? { NODE_OPTIONS: process.env.BENCH_SERVER_NODE_OPTIONS }
        : {}),
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      // Production refuses a loopback PUBLIC_URL (links in messages) and missing providers; the
      // bench sends no messages and takes no payments.
      PUBLIC_URL: 'https://bench.tunes.invalid',
      ALLOW_NO_PAYMENTS: 'true',
      ALLOW_NO_QPAY: 'true',
      ALLOW_NO_EBARIMT: 'true',
      ALLOW_NO_SMS: 'true',
      ALLOW_NO_EMAIL: 'true',
      LOG_LEVEL: 'warn',
      SEED_DEMO_DATA: 'true',
      WEB_DIST_DIR: webDir,
      PAYMENT_CHECK_INTERVAL_SECONDS: '0',
      JWT_SECRET,
      HMAC_SECRET: secret(),
      PAYMENT_CLIENT_SECRET: secret(),
      PAYMENT_CALLBACK_SECRET: secret(),
      SANDBOX_GATEWAY_SECRET: secret(),
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : { DATA_DIR: dataDir }),
      // The pool's and the pipelining client's sizes to try (an A/B of two bench runs); the server's
      // defaults otherwise.
      ...(process.env.DATABASE_POOL_SIZE ? { DATABASE_POOL_SIZE: process.env.DATABASE_POOL_SIZE } : {}),
      ...(process.env.DATABASE_PIPELINE_SIZE
        ? { DATABASE_PIPELINE_SIZE: process.env.DATABASE_PIPELINE_SIZE }
        : {}),
    },
    SERVER_NODE_FLAGS,
  );
  const baseUrl = `http://127.0.0.1:${port}`;
  let startupMs;
  try {
    startupMs = await waitFor(`${baseUrl}/`, { child: server.child, startedAt, timeoutMs: 180_000 });
  } catch (error) {
    await stop(server.child);
    throw new Error(`${error.message}\n${server.output()}`);
  }
  return {
    baseUrl,
    port,
    pid: server.child.pid,
    startupMs,
    stop: () => stop(server.child),
    output: server.output,
  };
}
