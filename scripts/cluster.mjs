#!/usr/bin/env node
// `npm run cluster`: three API processes behind HAProxy on this machine's PostgreSQL and Redis
// (DATABASE_URL, REDIS_URL; defaults: the local servers, database tunes_cluster), for trying the
// scale-out of docs/operations.md by hand. Ctrl-C, SIGTERM or SIGHUP stops every process it
// started, also while it is still starting them. Needs a build (npm run build).
import pg from 'pg';
import { stopChildren } from './lib/child-processes.mjs';
import { startCluster } from './lib/cluster.mjs';

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    stopChildren().then(() => process.exit(0));
  });
}

const databaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/tunes_cluster';
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379/3';
const processes = Number(process.env.CLUSTER_PROCESSES ?? 3);
const port = Number(process.env.CLUSTER_PORT ?? 8080);

const url = new URL(databaseUrl);
const name = url.pathname.slice(1);
const adminUrl = new URL(databaseUrl);
adminUrl.pathname = '/postgres';
const admin = new pg.Client({ connectionString: adminUrl.toString() });
await admin.connect().catch((error) => {
  process.stderr.write(`PostgreSQL is not reachable at ${url.host}: ${error.message}\n`);
  process.exit(1);
});
const exists = await admin.query('select 1 from pg_database where datname = $1', [name]);
if (exists.rowCount === 0) await admin.query(`create database "${name.replaceAll('"', '')}"`);
await admin.end();

const cluster = await startCluster({ databaseUrl, redisUrl, processes, port }).catch((error) => {
  // A stop during the start fails the start: the processes are being stopped, and this one exits.
  if (stopping) return new Promise(() => {});
  throw error;
});
process.stdout.write(
  `Tunes runs on ${processes} processes (ports ${cluster.ports.join(', ')}) behind HAProxy at ${cluster.url}\n` +
    `(database ${name}, Redis ${redisUrl}). Ctrl-C stops them.\n`,
);
