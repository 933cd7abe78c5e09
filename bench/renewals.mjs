// `npm run bench:renewals`: the renewal budget of performance.md — N subscriptions falling due on
// one day are reminded (3 days before) and then charged, retried or lapsed by the job queue, each
// exactly once, on the built server code (apps/server/dist) and a PostgreSQL database of its own.
// Prints the time, rate and process CPU of each phase, then checks the exactly-once counts.
// Options (environment): BENCH_RENEWALS (100000), BENCH_POSTGRES_URL (default DATABASE_URL, else
//   postgres://postgres@127.0.0.1:5432/postgres; a database tunes_renewals_<pid> is created there
//   and dropped), BENCH_PGLITE=1 to run on the embedded database instead, BENCH_NO_BUILD=1.
// The mix: 90 % saved cards that pay, 5 % cards that decline (a retry is scheduled), 5 % without
// a card (the reminder carries a payment link; unpaid at the end, the period lapses).
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import pg from 'pg';
import { totalCpuMs } from './lib/cpu.mjs';
import { createPostgresDatabase } from './lib/databases.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const count = Number(process.env.BENCH_RENEWALS ?? 100_000);
const onPglite = process.env.BENCH_PGLITE === '1';
const log = (line) => process.stdout.write(`${line}\n`);
// BENCH_BOOKS_ONLY=1: the seed's books alone (its whole check, a slice of its changes, the
// plans with BENCH_EXPLAIN=1), no renewal day; BENCH_BOOKS_SLICE: changes a slice reads (2,000).
const booksOnly = process.env.BENCH_BOOKS_ONLY === '1';
const sliceSize = Number(process.env.BENCH_BOOKS_SLICE ?? 2000);
const DAY = 86_400_000;

// The server and the sandboxes its renewals charge (mounted outside production); BENCH_NO_BUILD=1
// runs what apps/server/dist holds (built under the shared build lock, say).
if (process.env.BENCH_NO_BUILD !== '1') {
  const build = spawnSync('npm', ['run', 'build', '--workspace', 'packages/shared'], {
    cwd: root,
    encoding: 'utf8',
  });
  const buildServer = spawnSync(
    'npm',
    ['run', 'build', '--workspace', 'apps/server', '--workspace', 'apps/sandboxes'],
    { cwd: root, encoding: 'utf8' },
  );
  if (build.status !== 0 || buildServer.status !== 0)
    throw new Error(`build failed\n${build.stderr}${buildServer.stderr}`);
}

const dist = (file) => import(path.join(root, 'apps/server/dist', file));
const { loadConfig } = await dist('config.js');
const { openDatabase } = await dist('db/database.js');
const { migrateToLatest } = await dist('db/migrate.js');
const { createDeps } = await dist('deps.js');
const { buildApp } = await dist('app.js');
const { ManualClock } = await dist('lib/clock.js');
const { seedPlans } = await dist('modules/catalog/demo-seeds.js');
const { checkBooks } = await dist('modules/billing/books-check.js');
const { checkChanges } = await dist('modules/billing/books-changes.js');
const { booksJobKind, BOOKS_JOB_EVERY_MS } = await dist('modules/billing/books-store.js');

// Its own database, reached as a co-located one is: by its Unix socket (bench/lib/databases.mjs).
const database = onPglite ? undefined : await createPostgresDatabase(`tunes_renewals_${process.pid}`);
const databaseUrl = database?.url;
const dropDatabase = async () => database?.drop();

const config = loadConfig({
  NODE_ENV: 'development',
  LOG_LEVEL: 'warn',
  PUBLIC_URL: 'http://localhost:3000',
  WEB_DIST_DIR: '/nonexistent',
  PAYMENT_CHECK_INTERVAL_SECONDS: '0',
  ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
});
const handle = databaseUrl
  ? await openDatabase({ kind: 'postgres', url: databaseUrl, poolSize: 10 })
  : await openDatabase({ kind: 'pglite' });
const results = { count, database: handle.kind, node: process.version, phases: [] };
// The machine's 1-minute load average at the start and the end: a shared machine shows here.
results.loadAverage = { start: loadavg()[0] };

// Round trips to PostgreSQL, counted in this process (the server code shares this `pg`, and every
// statement, prepared or not, goes through its pool's clients): unlike seconds, the count per job
// does not move with the machine's load.
let queries = 0;
// The phase running now, for BENCH_QUERY_LOG's lines.
let phaseName = 'seed';
// BENCH_EXPLAIN=1: the plan of every books query, as run (EXPLAIN ANALYZE), printed before it runs.
let explaining = false;
// BENCH_STATEMENT_TIMES=1: each statement shape's count and mean time from sending to its answer,
// per phase, printed after the phases (which statements grow with the tables).
const statementTimes = process.env.BENCH_STATEMENT_TIMES === '1' ? new Map() : undefined;
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function countedQuery(...args) {
  queries++;
  const [text, values] = typeof args[0] === 'string' ? args : [args[0]?.text, args[0]?.values];
  // BENCH_QUERY_LOG=<file>: each statement's text is appended there (which ones a job sends).
  if (process.env.BENCH_QUERY_LOG)
    appendFileSync(
      process.env.BENCH_QUERY_LOG,
      `${phaseName}\t${String(text).replace(/\s+/g, ' ').slice(0, 200)}\n`,
    );
  if (explaining && /^\s*(select|with)\b/i.test(text ?? '') && !/books_checks/.test(text)) {
    return query.call(this, `explain (analyze, costs off, timing off) ${text}`, values).then((plan) => {
      log(
        `\n${text.replace(/\s+/g, ' ').slice(0, 160)}…\n${plan.rows.map((row) => row['QUERY PLAN']).join('\n')}`,
      );
      return query.apply(this, args);
    });
  }
  if (!statementTimes) return query.apply(this, args);
  const started = performance.now();
  const shape = `${phaseName}\t${String(text).replace(/\s+/g, ' ').replace(/\$\d+/g, '$').slice(0, 160)}`;
  const done = () => {
    const entry = statementTimes.get(shape) ?? { count: 0, ms: 0 };
    entry.count++;
    entry.ms += performance.now() - started;
    statementTimes.set(shape, entry);
  };
  const result = query.apply(this, args);
  if (result && typeof result.then === 'function') result.then(done, done);
  return result;
};

try {
  await migrateToLatest(handle.db);
  await seedPlans(handle.db);
  const due = new Date(Date.UTC(2027, 0, 15, 12));
  const clock = new ManualClock(due.getTime() - 4 * DAY);
  const deps = createDeps({ config, db: handle.db, dbKind: handle.kind, clock });
  const app = await buildApp(deps, { logLevel: 'warn' });
  await app.ready();

  log(`generating ${count.toLocaleString('en')} subscriptions due on ${due.toISOString().slice(0, 10)}…`);
  const db = handle.db;
  const range = sql`generate_series(1, ${sql.lit(count)}) as s(g)`;
  await sql`
    insert into users (username, phone_number, country_code, first_name, language)
    select '9768' || lpad(g::text, 7, '0'), '9768' || lpad(g::text, 7, '0'), 976, 'Renewing ' || g,
           case when g % 2 = 0 then 'mn' else 'en' end
    from ${range}`.execute(db);
  // Each period was bought by card a month before, as the site sells it: the gateway's paid page,
  // our paid invoice, its applied capture in the ledger and the period it started, so that the
  // books check finds a clean seed clean (the 5 % without a card did not save theirs).
  const bought = new Date(due.getTime() - 31 * DAY);
  const saves = sql`substr(u.username, 5)::int % 20 <> 0`;
  const seeded = sql`users u cross join packages p where u.username like '9768%' and p.merchant_code = 'PREMIUM_1M'`;
  await sql`
    insert into sandbox_gateway_payments (token, client_id, invoice_id, amount, currency, description, language_code,
      redirect_url, status, card_last4, created_at, settled_at, save_card, card_token)
    select 'bench_page_' || u.username, ${config.PAYMENT_CLIENT_ID}, 'BENCH-' || u.username, p.cost, p.currency,
           p.name_en, 'en', 'http://localhost:3000/premium', 'paid', '4242', ${bought}, ${bought}, ${saves},
           case when ${saves} then 'bench_' || u.username end
    from ${seeded}`.execute(db);
  await sql`
    insert into payment_invoices (invoice_id, user_id, package_id, amount, currency, status, provider_token, created_at,
      settled_at, kind, method, save_card, card_brand, card_last4)
    select 'BENCH-' || u.username, u.id, p.id, p.cost, p.currency, 'paid', 'bench_page_' || u.username, ${bought},
           ${bought}, 'purchase', 'card', ${saves}, 'Visa', '4242'
    from ${seeded}`.execute(db);
  await sql`
    insert into payment_ledger (invoice_id, entry, method, reference, amount, currency, outcome, created_at)
    select 'BENCH-' || u.username, 'capture', 'card', 'session', p.cost, p.currency, 'applied', ${bought}
    from ${seeded}`.execute(db);
  await sql`
    insert into subscriptions (owner_id, package_id, start_date, end_date, is_auto_renew, source_type, next_billing_at, invoice_id)
    select u.id, p.id, ${bought}, ${due}, true, 'Web', ${due}, 'BENCH-' || u.username
    from ${seeded}`.execute(db);
  await sql`
    update payment_invoices i set subscription_id = s.id
    from subscriptions s where s.invoice_id = i.invoice_id and i.invoice_id like 'BENCH-%'`.execute(db);
  // 95 % keep a card; one in twenty of those (5 % of all) declines when charged.
  await sql`
    insert into sandbox_gateway_cards (token, client_id, card_number, expires, created_at)
    select 'bench_' || u.username, ${config.PAYMENT_CLIENT_ID},
           case when substr(u.username, 5)::int % 20 = 1 then '4000000000000341' else '4242424242424242' end,
           '12/39', now()
    from users u where u.username like '9768%' and substr(u.username, 5)::int % 20 <> 0`.execute(db);
  await sql`
    insert into saved_cards (user_id, provider_token, brand, last4, expires, saved_at)
    select u.id, 'bench_' || u.username, 'Visa', '4242', '12/39', now()
    from users u where u.username like '9768%' and substr(u.username, 5)::int % 20 <> 0`.execute(db);
  await sql`analyze`.execute(db);

  // With BENCH_STATEMENT_TIMES=1, each table's scans in a phase (pg_stat_user_tables): a
  // sequential scan of a table that grows through the run shows here.
  const tableStats = async () =>
    new Map(
      (
        await sql`select schemaname || '.' || relname as name, seq_scan, seq_tup_read, coalesce(idx_scan, 0) as idx_scan,
                         coalesce(idx_tup_fetch, 0) as idx_tup_fetch, n_live_tup, n_dead_tup
                  from pg_stat_user_tables
                  union all
                  select schemaname || '.' || relname || ' ' || indexrelname, null, 0, idx_scan, idx_tup_fetch, idx_tup_read, 0
                  from pg_stat_user_indexes`.execute(db)
      ).rows.map((row) => [row.name, row]),
    );
  const printTableStats = (name, before, after) => {
    const rows = [...after.values()]
      .map((row) => {
        const old = before.get(row.name) ?? {};
        const delta = (key) => Number(row[key]) - Number(old[key] ?? 0);
        return {
          ...row,
          seq: delta('seq_scan'),
          seqRead: delta('seq_tup_read'),
          idx: delta('idx_scan'),
          idxFetch: delta('idx_tup_fetch'),
          // An index's row carries the entries its scans read in this column.
          indexRead: delta('n_live_tup'),
        };
      })
      .filter((row) => row.seq || row.idx)
      .sort((a, b) => b.seqRead + b.idxFetch - (a.seqRead + a.idxFetch))
      .slice(0, 80);
    log(
      `${name}: tables (sequential scans, rows they read; index scans, rows fetched; live, dead rows) and indexes (scans, rows fetched; entries read)`,
    );
    for (const row of rows)
      log(
        row.seq_scan === null
          ? `  ${row.name.padEnd(44)} idx ${row.idx} / ${row.idxFetch}  read ${row.indexRead}`
          : `  ${row.name.padEnd(44)} seq ${row.seq} / ${row.seqRead}  idx ${row.idx} / ${row.idxFetch}  live ${row.n_live_tup} dead ${row.n_dead_tup}`,
      );
  };

  // Autovacuum, where the server has it off (as this machine's PostgreSQL does; production keeps
  // PostgreSQL's default, on): without it no table is analyzed or vacuumed during the run, so
  // the planner keeps the statistics of the seed (the job queue's tables empty, no open invoice)
  // and its plans read ever more rows as the day goes on. The bench then does what autovacuum's
  // launcher would: every BENCH_VACUUM_SECONDS (60, its default naptime) a VACUUM (ANALYZE) of
  // the database, on a connection of its own whose CPU counts as PostgreSQL's.
  const autovacuumOff = !onPglite && (await sql`show autovacuum`.execute(db)).rows[0].autovacuum === 'off';
  const vacuumEvery = Number(process.env.BENCH_VACUUM_SECONDS ?? 60) * 1000;
  const housekeeper =
    autovacuumOff && vacuumEvery > 0 ? new pg.Client({ connectionString: databaseUrl }) : undefined;
  await housekeeper?.connect();
  const vacuumed = { rounds: 0, seconds: 0 };
  const keepHouse = () => {
    if (!housekeeper) return () => Promise.resolve();
    let stopped = false;
    let timer;
    let running = Promise.resolve();
    const round = () => {
      running = (async () => {
        const started = performance.now();
        await query.call(housekeeper, 'vacuum (analyze)');
        vacuumed.rounds++;
        vacuumed.seconds += (performance.now() - started) / 1000;
        if (!stopped) timer = setTimeout(round, vacuumEvery);
      })();
    };
    timer = setTimeout(round, vacuumEvery);
    return async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
    };
  };
  if (autovacuumOff)
    log(
      `autovacuum is off on this server: a VACUUM (ANALYZE) every ${vacuumEvery / 1000} s stands in for it`,
    );

  const phase = async (name, at) => {
    phaseName = name;
    clock.set(at);
    const cpu = process.cpuUsage();
    // PostgreSQL's share: its backends' own CPU (a backend closed meanwhile is not counted).
    const databaseCpu = async () => (database ? totalCpuMs(await database.pids()) : 0);
    const databaseCpuBefore = await databaseCpu();
    const queriesBefore = queries;
    const tablesBefore = statementTimes ? await tableStats() : undefined;
    const started = performance.now();
    const stopHousekeeping = keepHouse();
    let report;
    let ms;
    try {
      report = await app.jobs.runDue();
      ms = performance.now() - started;
    } finally {
      // A round still running is waited for (outside the phase's time, its CPU inside).
      await stopHousekeeping();
    }
    if (tablesBefore) printTableStats(name, tablesBefore, await tableStats());
    const used = process.cpuUsage(cpu);
    const databaseMs = (await databaseCpu()) - databaseCpuBefore;
    const ran = Object.fromEntries(report.ran.map((entry) => [entry.name, entry.count]));
    const books = (
      await sql`select mismatch_count, changes_left, invoices_asked from books_checks
                where trigger = 'job' order by id desc limit 1`.execute(db)
    ).rows[0];
    const items = Object.values(ran).reduce((sum, value) => sum + value, 0);
    const figures = {
      name,
      seconds: Math.round(ms / 100) / 10,
      jobs: ran,
      perSecond: Math.round(items / (ms / 1000)),
      processCpuSeconds: Math.round((used.user + used.system) / 100_000) / 10,
      cpuMsPerJob: Math.round((used.user + used.system) / 100 / Math.max(1, items)) / 10,
      databaseCpuSeconds: database ? Math.round(databaseMs / 100) / 10 : null,
      databaseCpuMsPerJob: database ? Math.round((databaseMs * 10) / Math.max(1, items)) / 10 : null,
      queriesPerJob: onPglite ? null : Math.round(((queries - queriesBefore) / Math.max(1, items)) * 10) / 10,
      booksJob: books ?? null,
    };
    results.phases.push(figures);
    log(
      `${name.padEnd(10)} ${String(figures.seconds).padStart(7)} s  ${String(figures.perSecond).padStart(6)} jobs/s  ` +
        `CPU ${figures.processCpuSeconds} s = ${figures.cpuMsPerJob} ms/job (this process)` +
        `${database ? `, PostgreSQL ${figures.databaseCpuSeconds} s = ${figures.databaseCpuMsPerJob} ms/job` : ''}  ` +
        `${figures.queriesPerJob === null ? '' : `${figures.queriesPerJob} queries/job  `}${JSON.stringify(ran)}`,
    );
    if (books)
      log(
        `           books job: ${books.mismatch_count} mismatch(es), ${books.invoices_asked} invoice(s) asked of the providers` +
          `${books.changes_left ? ', changes left for the next scan' : ''}`,
      );
  };

  if (!booksOnly) {
    await phase('reminders', due.getTime() - 3 * DAY + 60_000);
    await phase('charges', due.getTime() + 60_000);
  }

  if (statementTimes) {
    const rows = [...statementTimes].sort((a, b) => b[1].ms - a[1].ms).slice(0, 40);
    for (const [shape, { count: n, ms }] of rows)
      log(
        `${String(Math.round(ms)).padStart(8)} ms ${String(n).padStart(7)}× ${(ms / n).toFixed(3).padStart(8)} ms  ${shape}`,
      );
  }
  await housekeeper?.end();
  results.autovacuum = autovacuumOff
    ? { standIn: 'vacuum (analyze)', everySeconds: vacuumEvery / 1000, ...vacuumed }
    : 'on';
  if (autovacuumOff)
    log(
      `autovacuum's stand-in: ${vacuumed.rounds} VACUUM (ANALYZE) round(s), ${Math.round(vacuumed.seconds * 10) / 10} s in all`,
    );
  const [invoices] = (
    await sql`select count(*)::int as renewals,
                     count(*) filter (where status = 'paid')::int as paid
              from payment_invoices where kind = 'renewal'`.execute(db)
  ).rows;
  const [charges] = (
    await sql`select count(*)::int as charges, count(distinct invoice_id)::int as invoices
              from sandbox_gateway_charges where status = 'paid'`.execute(db)
  ).rows;
  const [subscriptions] = (
    await sql`select count(*) filter (where renewal_attempts = 1)::int as retrying,
                     count(*) filter (where not is_auto_renew)::int as lapsed,
                     count(*) filter (where end_date > ${due})::int as renewed
              from subscriptions`.execute(db)
  ).rows;
  const [notices] = (await sql`select count(*)::int as notices from billing_notices`.execute(db)).rows;
  results.outcome = { ...invoices, ...charges, ...subscriptions, ...notices };

  // The books afterwards: the whole database checked at once (as `books:check --offline` does),
  // then what the hourly job does a run: a slice of the day's changes (books-changes.ts).
  const timed = async (work) => {
    const started = performance.now();
    const value = await work();
    return { value, seconds: Math.round(performance.now() - started) / 1000 };
  };
  const countChanges = async () =>
    (await sql`select count(*)::int as n from books_changes`.execute(db)).rows[0].n;
  const changesAfterDay = await countChanges();
  const whole = await timed(() => checkBooks(deps, { providers: false, graceMs: 0 }));
  const slice = await timed(() =>
    checkChanges(db, { now: clock.now(), graceMs: 0, limit: 1000, carried: [], maxChanges: sliceSize }),
  );
  if (process.env.BENCH_EXPLAIN === '1' && !onPglite) {
    explaining = true;
    log('\nThe whole check, then a slice of the changes:');
    await checkBooks(deps, { providers: false, graceMs: 0 });
    await checkChanges(db, { now: clock.now(), graceMs: 0, limit: 1000, carried: [], maxChanges: sliceSize });
    explaining = false;
  }
  // And one whole run of the job an hour on: the next slice and the providers' sweep (its bound).
  clock.set(clock.now().getTime() + BOOKS_JOB_EVERY_MS);
  const job = await timed(() => booksJobKind(deps).run('books:bench', { error: () => {} }));
  results.books = {
    jobSeconds: job.seconds,
    jobInvoicesAsked: job.value.invoicesAsked,
    jobMismatches: job.value.mismatches.length,
    wholeSeconds: whole.seconds,
    wholeMismatches: whole.value.mismatches.length,
    changesAfterDay,
    sliceSeconds: slice.seconds,
    sliceChanges: slice.value.changesChecked,
    sliceMismatches: slice.value.mismatches.length,
  };
  log(
    `books: whole database checked in ${whole.seconds} s, ${whole.value.mismatches.length} mismatch(es)` +
      `${whole.value.mismatches.length ? ` (${[...new Set(whole.value.mismatches.map((m) => m.kind))].join(', ')})` : ''}; ` +
      `${changesAfterDay.toLocaleString('en')} changes waiting for the job, a slice of ${slice.value.changesChecked} checked in ${slice.seconds} s ` +
      `(${slice.value.mismatches.length} mismatch(es)); the job's next run (that slice and ${job.value.invoicesAsked} invoices asked ` +
      `of the providers) took ${job.seconds} s, ${job.value.mismatches.length} mismatch(es)`,
  );
  if (booksOnly) {
    await app.close();
    await deps.close();
    process.exitCode = 0;
  }
  const once = charges.charges === charges.invoices && charges.charges === invoices.paid;
  const total = results.phases.reduce((sum, entry) => sum + entry.seconds, 0);
  results.totalSeconds = Math.round(total * 10) / 10;
  results.loadAverage.end = loadavg()[0];
  results.budget = { seconds: 600, met: total <= 600 && once };
  if (!booksOnly)
    log(
      `outcome: ${subscriptions.renewed} renewed, ${subscriptions.retrying} retrying, ${subscriptions.lapsed} lapsed; ` +
        `${charges.charges} paid charges for ${charges.invoices} invoices (${once ? 'each once' : 'NOT once'}); ` +
        `${notices.notices} messages`,
    );
  if (!booksOnly)
    log(
      `renewal budget: ${results.totalSeconds} s for ${count.toLocaleString('en')} due (budget 600 s) — ${results.budget.met ? 'met' : 'missed'}`,
    );
  if (!booksOnly) {
    await app.close();
    await deps.close();
  }
} finally {
  await handle.close();
  await dropDatabase();
}

if (!booksOnly) {
  mkdirSync(path.join(root, 'bench/results'), { recursive: true });
  // The budget's size is the figure kept in git; a smaller run (an A/B, a try) does not replace it.
  const file = count === 100_000 ? 'renewals-latest.json' : `renewals-${count}.json`;
  writeFileSync(path.join(root, 'bench/results', file), `${JSON.stringify(results, null, 2)}\n`);
}
