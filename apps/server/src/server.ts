import { existsSync } from 'node:fs';
import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { DataDirLockedError } from './db/lock.js';
import { createDeps } from './deps.js';
import { AdjustableClock, systemClock } from './lib/clock.js';
import { openConfiguredDatabase } from './runtime.js';

/** `.env` beside where the server starts, if there is one (`.env.example` lists the variables). */
function loadEnvFile() {
  if (existsSync('.env')) process.loadEnvFile('.env');
}

async function main() {
  loadEnvFile();
  const config = loadConfig();
  const database = await openConfiguredDatabase(config, { seed: config.SEED_DEMO_DATA });
  const deps = createDeps({
    config,
    db: database.db,
    dbKind: database.kind,
    databaseReady: database.ready,
    ...(database.poolStats ? { dbPoolStats: database.poolStats } : {}),
    // Development tools may move business time forward (POST /dev/clock); production may not.
    clock: config.isProduction ? systemClock : new AdjustableClock(),
  });

  const app = await buildApp(deps);
  let closing = false;
  const shutdown = async (signal: string, exitCode = 0) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      app.log.error('shutdown took too long; exiting');
      process.exit(1);
    }, 10_000);
    force.unref();
    try {
      await app.close();
      await deps.close();
    } finally {
      // PGlite checkpoints on close; the data directory is whole after Ctrl-C.
      await database.shutdown();
    }
    process.exit(exitCode);
  };
  // `on`, not `once`: a Ctrl-C reaches the server from the terminal and again through npm, and a
  // second signal must not cut the shutdown short (PGlite would not checkpoint).
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  // Listening starts before the database is ready, so the site's pages answer at once even
  // while a first start creates the PGlite cluster; API calls wait for `database.ready`.
  try {
    await app.listen({ host: config.HOST, port: config.PORT });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    process.stderr.write(
      `Port ${config.PORT} is already in use: stop what runs there, or set PORT to a free one.\n`,
    );
    await shutdown('port in use', 1);
    return;
  }
  try {
    await database.ready;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    process.stderr.write(`Start-up failed: the database could not be prepared: ${reason}\n`);
    await shutdown('database failure', 1);
    return;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  const database_ = database.kind === 'postgres' ? 'PostgreSQL' : `embedded PGlite in ${config.dataDir}`;
  process.stdout.write(`\nTunes is running at http://localhost:${port} (database: ${database_})\n\n`);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DataDirLockedError) {
    process.stderr.write(`${error.message}\n`);
  } else {
    process.stderr.write(
      `Start-up failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
  }
  process.exit(1);
});
