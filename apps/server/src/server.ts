import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { DataDirLockedError } from './db/lock.js';
import { applyDemoSeeds } from './db/seed.js';
import { demoSeeds } from './demo-seeds.js';
import { createDeps } from './deps.js';
import { openConfiguredDatabase } from './runtime.js';

async function main() {
  const config = loadConfig();
  const database = await openConfiguredDatabase(config);
  const deps = createDeps({ config, db: database.db, dbKind: database.kind });
  if (config.SEED_DEMO_DATA) await applyDemoSeeds(database.db, demoSeeds);

  const app = await buildApp(deps);
  let closing = false;
  const shutdown = async (signal: string) => {
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
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ host: config.HOST, port: config.PORT });
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
