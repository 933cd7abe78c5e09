import type {
  BooksMismatch,
  BooksMismatchKind,
  BooksReport,
  BooksUnchecked,
} from '@tunes/shared/books-codes';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { JobKind } from '../../lib/job-queue.js';
import {
  BOOKS_GRACE_MS,
  type BooksCheck,
  type BooksCheckOptions,
  type BooksDeps,
  checkBooks,
  checkBooksChanges,
} from './books-check.js';
import type { BooksChecksTable } from './books-tables.js';
import './books-tables.js';

/**
 * The books check's results, kept (books_checks): the console shows the last one, every
 * instance's `tunes_books_mismatches` reads the same count, and the hourly job asks the
 * providers only about what changed since its last run, plus what that run found wrong.
 */

export type BooksTrigger = BooksReport['trigger'];

/** The job runs when its last run is this old by the service clock. */
export const BOOKS_JOB_EVERY_MS = 60 * 60_000;
/** Invoices one run of the job asks the providers about; the next run goes on from there. */
const JOB_MAX_INVOICES = 2000;
/**
 * Changes one slice of the job reads (books-changes.ts), in a transaction of its own: a few index
 * lookups each, a fraction of a second of the database. A run reads slices for up to
 * JOB_SLICES_FOR_MS, then leaves the rest of a backlog (a renewal day) to the next scan.
 */
const JOB_MAX_CHANGES = 2000;
const JOB_SLICES_FOR_MS = 5000;
/** Checks kept; older ones are deleted as new ones are written. */
const KEEP_CHECKS = 200;
const PROVIDER_KINDS: BooksMismatchKind[] = [
  'capture_missing',
  'capture_unknown',
  'capture_amount_differs',
  'refund_differs',
];

interface StoredReport {
  mismatches: BooksMismatch[];
  unchecked: BooksUnchecked[];
  truncated: boolean;
}

function reportOf(
  row: Pick<BooksChecksTable, 'trigger' | 'invoices_asked'> & {
    started_at: Date;
    finished_at: Date;
    since: Date | null;
    report: unknown;
  },
): BooksReport {
  const stored = (typeof row.report === 'string' ? JSON.parse(row.report) : row.report) as StoredReport;
  return {
    startedAt: new Date(row.started_at).toISOString(),
    finishedAt: new Date(row.finished_at).toISOString(),
    since: row.since ? new Date(row.since).toISOString() : null,
    trigger: row.trigger,
    invoicesAsked: row.invoices_asked,
    mismatches: stored.mismatches,
    unchecked: stored.unchecked,
    truncated: stored.truncated,
  };
}

/**
 * Keeps a check and answers it as the console shows it. `sweepStartedAt`: when the job's sweep
 * of the providers this check goes on with began (by default, this check began one).
 */
export async function saveBooksCheck(
  db: Kysely<Database>,
  check: BooksCheck,
  trigger: BooksTrigger,
  sweepStartedAt: Date = check.startedAt,
  job: { changesLeft: boolean; providersAskedAt: Date | null } = {
    changesLeft: false,
    providersAskedAt: null,
  },
) {
  const report: StoredReport = {
    mismatches: check.mismatches,
    unchecked: check.unchecked,
    truncated: check.truncated,
  };
  const row = await db
    .insertInto('books_checks')
    .values({
      trigger,
      started_at: check.startedAt,
      finished_at: check.finishedAt,
      since: check.since,
      providers_since: check.providersSince,
      providers_after: check.providersAfter,
      sweep_started_at: sweepStartedAt,
      invoices_asked: check.invoicesAsked,
      mismatch_count: check.mismatches.length,
      report: JSON.stringify(report),
      changes_left: job.changesLeft,
      providers_asked_at: job.providersAskedAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .deleteFrom('books_checks')
    .where('id', '<=', String(BigInt(row.id) - BigInt(KEEP_CHECKS)))
    .execute();
  return reportOf({
    ...check,
    started_at: check.startedAt,
    finished_at: check.finishedAt,
    trigger,
    invoices_asked: check.invoicesAsked,
    report,
  });
}

/** Checks the books now, keeps the result and answers it. */
export async function runBooksCheck(
  deps: BooksDeps,
  trigger: BooksTrigger,
  options: BooksCheckOptions = {},
  sweepStartedAt?: Date,
) {
  return saveBooksCheck(deps.db, await checkBooks(deps, options), trigger, sweepStartedAt);
}

const lastCheck = (db: Kysely<Database>) =>
  db.selectFrom('books_checks').selectAll().orderBy('id', 'desc').limit(1);

/** The last check kept, whoever ran it; null before the first. */
export async function lastBooksReport(db: Kysely<Database>): Promise<BooksReport | null> {
  const row = await lastCheck(db).executeTakeFirst();
  return row ? reportOf(row) : null;
}

/** Mismatches the last check of the whole books found (not one limited to recent invoices). */
export async function lastMismatchCount(db: Kysely<Database>): Promise<number> {
  const row = await lastCheck(db).where('since', 'is', null).executeTakeFirst();
  return row?.mismatch_count ?? 0;
}

/**
 * What the job's next run asks the providers about, from its last run: the rest of a sweep that
 * stopped at its bound, or what was touched since the last sweep began (less the grace period
 * it left to captures on their way); and again what the last run found wrong or could not ask.
 */
function nextJobRun(last: JobCheckRow | undefined): { options: BooksCheckOptions; sweepStartedAt?: Date } {
  if (!last) return { options: { maxInvoices: JOB_MAX_INVOICES } };
  const { mismatches, unchecked } = reportOf(last);
  const recheck = [
    ...mismatches.filter((found) => PROVIDER_KINDS.includes(found.kind)).map((found) => found.invoiceId),
    ...unchecked.map((found) => found.invoiceId),
  ].filter((id): id is string => id !== undefined);
  const options = { recheck, maxInvoices: JOB_MAX_INVOICES };
  if (last.providers_after) {
    return {
      options: {
        ...options,
        providersSince: last.providers_since ?? undefined,
        providersAfter: last.providers_after,
      },
      sweepStartedAt: last.sweep_started_at,
    };
  }
  return {
    options: { ...options, providersSince: new Date(last.sweep_started_at.getTime() - BOOKS_GRACE_MS) },
  };
}

type JobCheckRow = NonNullable<Awaited<ReturnType<ReturnType<typeof lastCheck>['executeTakeFirst']>>>;

const lastJobCheck = (db: Kysely<Database>) => lastCheck(db).where('trigger', '=', 'job').executeTakeFirst();

/** When the job last asked the providers (rows from before the column: the run's own start). */
const providersAskedAt = (row: JobCheckRow) => row.providers_asked_at ?? row.started_at;

/**
 * One run of the job: the database for what changed since the last run, and what that run found
 * wrong (the whole database the first time, or when the last report could not list everything);
 * once an hour of the service clock also the providers, about invoices touched since their last
 * sweep. A run that did not ask them keeps what the last one found there, and where it stopped.
 */
async function runJob(deps: BooksDeps) {
  const last = await lastJobCheck(deps.db);
  const now = deps.clock.now();
  const previous = last ? reportOf(last) : null;
  const askProviders = !last || providersAskedAt(last).getTime() <= now.getTime() - BOOKS_JOB_EVERY_MS;
  const fromProviders = (found: BooksMismatch) => PROVIDER_KINDS.includes(found.kind);
  const next = askProviders ? nextJobRun(last) : null;
  const check = await checkBooksChanges(deps, {
    carried:
      previous && !previous.truncated ? previous.mismatches.filter((found) => !fromProviders(found)) : null,
    maxChanges: JOB_MAX_CHANGES,
    sliceForMs: JOB_SLICES_FOR_MS,
    providers: next?.options ?? null,
    kept: {
      mismatches: previous?.mismatches.filter(fromProviders) ?? [],
      unchecked: previous?.unchecked ?? [],
    },
  });
  if (next || !last) {
    return saveBooksCheck(deps.db, check, 'job', next?.sweepStartedAt ?? check.startedAt, {
      changesLeft: check.changesLeft,
      providersAskedAt: check.startedAt,
    });
  }
  // Asked nobody: where the providers' sweep stands is the last run's.
  const kept = { ...check, providersSince: last.providers_since, providersAfter: last.providers_after };
  return saveBooksCheck(deps.db, kept, 'job', last.sweep_started_at, {
    changesLeft: check.changesLeft,
    providersAskedAt: providersAskedAt(last),
  });
}

/**
 * The reconciliation job (billing.books): every hour of the service clock, and at each scan while
 * changes are left from a run that read as many as it may; mismatches are logged, kept and
 * counted in `tunes_books_mismatches`.
 */
export function booksJobKind(deps: BooksDeps): JobKind {
  return {
    name: 'billing.books',
    findDue: async (now, _limit, after) => {
      if (after) return [];
      const last = await lastJobCheck(deps.db);
      const hourDue = !last || providersAskedAt(last).getTime() <= now.getTime() - BOOKS_JOB_EVERY_MS;
      if (!hourDue && !last?.changes_left) return [];
      return [`books:${now.toISOString().slice(0, 13)}`];
    },
    run: async (_key, log) => {
      const report = await runJob(deps);
      if (report.mismatches.length > 0) {
        log.error(
          {
            mismatches: report.mismatches.slice(0, 20),
            count: report.mismatches.length,
            truncated: report.truncated,
          },
          `books check: ${report.mismatches.length} mismatch(es)`,
        );
      }
      return report;
    },
  };
}
