import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { benchIds, countRows, generateUsers } from './generate-users.mjs';

/** Where the bench creates its PostgreSQL databases: BENCH_POSTGRES_URL, else DATABASE_URL. */
export function postgresAdminUrl() {
  return (
    process.env.BENCH_POSTGRES_URL ??
    process.env.DATABASE_URL ??
    'postgres://postgres@127.0.0.1:5432/postgres'
  );
}

/**
 * The URL the server reaches a PostgreSQL on this machine by: its Unix socket, as a co-located
 * database is reached (libpq's own default), when the socket is there: a round trip costs both
 * sides ~25 % less CPU than loopback TCP (docs/performance.md). BENCH_POSTGRES_SOCKET names the
 * socket's directory (default /var/run/postgresql); `none` keeps TCP.
 */
function socketUrl(url) {
  const directory = process.env.BENCH_POSTGRES_SOCKET ?? '/var/run/postgresql';
  const local = ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
  if (directory === 'none' || !local || !existsSync(`${directory}/.s.PGSQL.${url.port || 5432}`)) return url;
  const socket = new URL(url);
  socket.searchParams.set('host', directory);
  return socket;
}

/**
 * A fresh PostgreSQL database `name` on the admin URL's server: its URL, the pids of the backends
 * connected to it (their CPU is the database's share of a call), and `drop()`.
 */
export async function createPostgresDatabase(name) {
  const admin = new pg.Client({ connectionString: postgresAdminUrl() });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.query(`create database ${name}`);
  const url = new URL(postgresAdminUrl());
  url.pathname = `/${name}`;
  return {
    url: socketUrl(url).toString(),
    pids: async () =>
      (await admin.query('select pid from pg_stat_activity where datname = $1', [name])).rows.map(
        (row) => row.pid,
      ),
    drop: async () => {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

/** Imports a module of a checkout's built server (`<root>/apps/server/dist/<file>`). */
export function distOf(root) {
  return (file) => import(pathToFileURL(path.join(root, 'apps/server/dist', file)).href);
}

/**
 * Migrates and seeds a database with a checkout's own built code, then generates listeners
 * `from`..`to` (bench/lib/generate-users.mjs). Answers the ids of listener `benchUser`, the time
 * the generation took and the row counts.
 */
export async function fillDatabase(root, options, { from, to, benchUser }) {
  const dist = distOf(root);
  const { openDatabase } = await dist('db/database.js');
  const { migrateToLatest } = await dist('db/migrate.js');
  const { applyDemoSeeds } = await dist('db/seed.js');
  const { demoSeeds } = await dist('demo-seeds.js');
  const handle = await openDatabase(options);
  try {
    await migrateToLatest(handle.db);
    await applyDemoSeeds(handle.db, demoSeeds);
    const started = Date.now();
    await generateUsers(handle.db, { from, to });
    const ids = await benchIds(handle.db, benchUser);
    return { ids, generatedMs: Date.now() - started, counts: await countRows(handle.db) };
  } finally {
    await handle.close();
  }
}
