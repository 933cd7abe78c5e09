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
async function nextJobRun(
  db: Kysely<Database>,
): Promise<{ options: BooksCheckOptions; sweepStartedAt?: Date }> {
  const last = await lastCheck(db).where('trigger', '=', 'job').executeTakeFirst();
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

/**
 * The reconciliation job (billing.books): every hour of the service clock the whole database is
 * checked, and the providers are asked about invoices touched since the last run; mismatches are
 * logged, kept and counted in `tunes_books_mismatches`.
 */
export function booksJobKind(deps: BooksDeps): JobKind {
  return {
    name: 'billing.books',
    findDue: async (now, _limit, after) => {
      if (after) return [];
      const last = await lastCheck(deps.db).where('trigger', '=', 'job').executeTakeFirst();
      if (last && last.started_at.getTime() > now.getTime() - BOOKS_JOB_EVERY_MS) return [];
      return [`books:${now.toISOString().slice(0, 13)}`];
    },
    run: async (_key, log) => {
      const next = await nextJobRun(deps.db);
      const report = await runBooksCheck(deps, 'job', next.options, next.sweepStartedAt);
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
