import type { Answer, Statement } from '../../src/db/pglite-session.js';
import { PGliteThread, type StatementRunner } from '../../src/db/pglite-thread.js';

/**
 * PGlite threads kept by this test process between test files. Starting one costs about a second
 * of CPU (its thread, and PGlite loading the migrated snapshot: docs/performance.md, "Suite
 * time"), and a run starts over a hundred; putting one back as the snapshot left it costs a
 * tenth of that. A file closes its app and the thread is reset: every table emptied and the
 * snapshot's rows put back, sequences restarted, schemas made since dropped, the session's
 * settings, cursors, listeners, advisory locks and temporary tables discarded. Then the catalog
 * is compared with the snapshot's: a thread whose tables, columns, functions or triggers differ
 * (a test that altered the schema), or whose reset failed, is closed instead, and the next file
 * starts a new one. Named statements stay parsed: the schema they were planned on is the same.
 */

/** Namespaces of the database's own objects, not PostgreSQL's (`n` is pg_namespace). */
const OURS = `n.nspname <> 'information_schema' and n.nspname not like 'pg\\_%'`;

/** The catalog, as far as a test could change it: relations and their columns, functions, triggers. */
const FINGERPRINT = `
  select md5(
    coalesce((select string_agg(n.nspname || '.' || c.relname || ':' || c.relkind::text || ':' || coalesce(
        (select string_agg(a.attname || ' ' || format_type(a.atttypid, a.atttypmod) || ' ' || a.attnotnull::text, ',' order by a.attnum)
         from pg_attribute a where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped), ''), ';'
        order by n.nspname, c.relname)
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where ${OURS}), '')
    || (select count(*) from pg_proc p join pg_namespace n on n.oid = p.pronamespace where ${OURS})::text
    || (select count(*) from pg_trigger)::text
    || (select count(*) from pg_db_role_setting)::text
  ) as fingerprint`;

/** The schemas of the database's own objects. */
const USER_SCHEMAS = `select n.nspname from pg_namespace n where ${OURS}`;

/** The tables that hold rows (partitions are reached through their parent). */
const USER_TABLES = `
  select c.oid::regclass::text as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
  where c.relkind in ('r', 'p') and not c.relispartition and ${OURS}
  order by 1`;

interface Snapshot {
  fingerprint: string;
  /** The reset's SQL, ending with the snapshot's rows put back. */
  reset: string;
}

const script = (sql: string): Statement => ({ sql, parameters: [], script: true });
const query = (sql: string, parameters: unknown[] = []): Statement => ({ sql, parameters, script: false });
const quote = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** What a fresh thread holds: read from the first one, as all start from the same snapshot. */
async function readSnapshot(thread: PGliteThread): Promise<Snapshot> {
  const fingerprint = await fingerprintOf(thread);
  const schemas = ((await thread.run(query(USER_SCHEMAS))).rows as { nspname: string }[]).map(
    (row) => row.nspname,
  );
  const tables = ((await thread.run(query(USER_TABLES))).rows as { name: string }[]).map((row) => row.name);
  const restores: string[] = [];
  for (const table of tables) {
    const { rows } = await thread.run(
      query(`select coalesce(json_agg(t), '[]')::text as rows from ${table} t`),
    );
    const json = (rows[0] as { rows: string }).rows;
    if (json !== '[]')
      restores.push(
        `insert into ${table} select * from json_populate_recordset(null::${table}, ${quote(json)});`,
      );
  }
  // Sequences the migrations used keep their place; the others start again.
  const { rows: used } = await thread.run(
    query(`select format('%I.%I', schemaname, sequencename) as name, last_value::text as value
           from pg_sequences where last_value is not null`),
  );
  for (const { name, value } of used as { name: string; value: string }[])
    restores.push(`select setval(${quote(name)}, ${value});`);
  const keptSchemas = schemas.map(quote).join(', ');
  const reset = `
    rollback;
    close all; reset all; unlisten *; select pg_advisory_unlock_all(); discard temp;
    begin;
    set local session_replication_role = replica;
    do $$
    declare r record;
    begin
      for r in ${USER_SCHEMAS} and n.nspname not in (${keptSchemas}) loop
        execute format('drop schema %I cascade', r.nspname);
      end loop;
      for r in ${USER_TABLES} loop
        execute 'delete from ' || r.name;
      end loop;
      for r in select c.oid::regclass::text as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
               where c.relkind = 'S' and ${OURS} loop
        execute 'alter sequence ' || r.name || ' restart';
      end loop;
    end $$;
    ${restores.join('\n')}
    commit;`;
  return { fingerprint, reset };
}

async function fingerprintOf(thread: PGliteThread): Promise<string> {
  const { rows } = await thread.run(query(FINGERPRINT));
  return (rows[0] as { fingerprint: string }).fingerprint;
}

let snapshotBlob: Blob | undefined;
let snapshot: Promise<Snapshot> | undefined;
const idle: PGliteThread[] = [];

/** Puts a thread back as the snapshot left it, or closes it when that cannot be shown. */
async function giveBack(thread: PGliteThread): Promise<void> {
  try {
    const { reset, fingerprint } = await (snapshot as Promise<Snapshot>);
    await thread.run(script(reset));
    if ((await fingerprintOf(thread)) === fingerprint) {
      idle.push(thread);
      return;
    }
  } catch {
    // A closed thread, or a reset that failed: not lent again.
  }
  await thread.close();
}

/**
 * A PGlite holding a copy of the run's migrated snapshot (`loadDataDir`, the same blob for every
 * lease of a run): a kept thread when one is idle, else a new one. Its `close` gives it back.
 */
export function leasePGlite(loadDataDir: Blob): StatementRunner {
  if (snapshotBlob !== loadDataDir) {
    // Another snapshot (a run of its own in this process): the kept threads hold the old one.
    for (const thread of idle.splice(0)) void thread.close();
    snapshotBlob = loadDataDir;
    snapshot = undefined;
  }
  const thread = idle.pop() ?? new PGliteThread({ loadDataDir });
  if (!snapshot) {
    snapshot = thread.ready.then(() => readSnapshot(thread));
    snapshot.catch(() => {});
  }
  const ready = thread.ready.then(() => snapshot).then(() => {});
  ready.catch(() => {});
  let closing: Promise<void> | undefined;
  return {
    ready,
    run: (statement: Statement): Promise<Answer> =>
      closing ? Promise.reject(new Error('PGlite is closed: it was given back')) : thread.run(statement),
    close() {
      closing ??= giveBack(thread);
      return closing;
    },
  };
}
