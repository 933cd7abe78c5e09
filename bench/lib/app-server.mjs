import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { freePort, startNode, stop, waitFor } from './processes.mjs';

export const JWT_SECRET = randomBytes(32).toString('hex');
/** The other secrets, the same for every server a bench starts: processes of one site share them. */
const secret = () => randomBytes(32).toString('hex');
const SECRETS = {
  HMAC_SECRET: secret(),
  PAYMENT_CLIENT_SECRET: secret(),
  PAYMENT_CALLBACK_SECRET: secret(),
  SANDBOX_GATEWAY_SECRET: secret(),
};

/** The V8 flags a checkout runs its server with (`scripts/lib/server-node-flags.mjs`), if it has any. */
async function serverNodeFlags(root) {
  const file = path.join(root, 'scripts/lib/server-node-flags.mjs');
  if (!existsSync(file)) return [];
  return (await import(pathToFileURL(file).href)).SERVER_NODE_FLAGS ?? [];
}

/**
 * The production build of the server (`<root>/apps/server/dist/server.js`) on 127.0.0.1, on PGlite
 * (`dataDir`) or PostgreSQL (`databaseUrl`), with the V8 flags `npm start` gives it. Resolves once
 * `/` answers, with the milliseconds that took (the start-up budget of performance.md).
 *
 * By default it runs as production does (NODE_ENV=production, no sandbox, no /dev). `sandboxes`
 * runs the same build as a staging site with the built-in card gateway, QPay and e-barimt
 * sandboxes and the development tools mounted (the launch-day bench): production never mounts
 * them (DESIGN §7), so that is NODE_ENV=development with production's logging (JSON) and no API
 * docs. `env` adds or overrides variables (the launch day's limits and TRUST_PROXY).
 */
export async function startAppServer(root, { dataDir, databaseUrl, webDir, sandboxes = false, env = {} }) {
  const port = await freePort();
  const mode = sandboxes
    ? { NODE_ENV: 'development', LOG_FORMAT: 'json', API_DOCS: 'false' }
    : {
        NODE_ENV: 'production',
        // Production refuses missing providers; this server sends no message and takes no payment.
        ALLOW_NO_PAYMENTS: 'true',
        ALLOW_NO_QPAY: 'true',
        ALLOW_NO_EBARIMT: 'true',
        ALLOW_NO_SMS: 'true',
        ALLOW_NO_EMAIL: 'true',
      };
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
      ...mode,
      HOST: '127.0.0.1',
      PORT: String(port),
      // Links in messages only; production refuses a loopback one. Calls to the sandboxes at this
      // origin stay inside the process (app.inject), whatever address it listens on.
      PUBLIC_URL: 'https://bench.tunes.invalid',
      LOG_LEVEL: 'warn',
      SEED_DEMO_DATA: 'true',
      WEB_DIST_DIR: webDir,
      PAYMENT_CHECK_INTERVAL_SECONDS: '0',
      JWT_SECRET,
      ...SECRETS,
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : { DATA_DIR: dataDir }),
      // The pool's size to try (an A/B of two bench runs); the server's default otherwise.
      ...(process.env.DATABASE_POOL_SIZE ? { DATABASE_POOL_SIZE: process.env.DATABASE_POOL_SIZE } : {}),
      ...env,
    },
    [
      ...(await serverNodeFlags(root)),
      // Flags NODE_OPTIONS refuses (`--cpu-prof --cpu-prof-dir=…`: where the server's CPU goes).
      ...(process.env.BENCH_SERVER_NODE_FLAGS?.split(' ').filter(Boolean) ?? []),
    ],
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
