import type { BooksMismatch, BooksUnchecked } from '@tunes/shared/books-codes';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { checkChangesUntil } from './books-changes.js';
import { capturesNotBalanced, ledgerAgainstInvoices, periodsAgainstLedger } from './books-ledger.js';
import {
  type AskedInvoice,
  checkInvoiceAtProviders,
  ledgerMovements,
  type ProviderDeps,
} from './books-providers.js';
import '../premium/tables.js';

/**
 * The books balance, checked (product.md §12 "Money"): the payment ledger against the invoices,
 * against what the providers report, and against the periods that give access. Each part
 * reports only what is surely wrong; what may still be on its way (a surplus capture awaiting
 * its automatic refund, a capture a provider took moments ago) is given `graceMs` of the service
 * clock first. The database parts are set-based queries that answer only the mismatches; the
 * providers are asked invoice by invoice, in pages, optionally only about recent ones.
 */

export type BooksDeps = ProviderDeps;

/** A surplus awaiting its automatic refund, or a capture on its way to the ledger, is this young. */
export const BOOKS_GRACE_MS = 10 * 60_000;
const PAGE_SIZE = 100;
/** Invoices asked of the providers at once. */
const PROVIDER_CONCURRENCY = 4;
const MAX_MISMATCHES = 1000;

export interface BooksCheckOptions {
  /** Only invoices made, settled or written to the ledger since then (the periods are checked whole). */
  since?: Date;
  /** Ask the providers (default); false checks the database alone. */
  providers?: boolean;
  /** Ask the providers only about invoices touched since then (default: `since`). */
  providersSince?: Date;
  /** Go on asking after this invoice id (a bounded check that stopped there). */
  providersAfter?: string;
  /** Invoices to ask about whatever their age (what the last check found). */
  recheck?: string[];
  /** Stop asking after this many invoices; the report says where (`providersAfter`). */
  maxInvoices?: number;
  pageSize?: number;
  graceMs?: number;
  /** A report lists at most this many mismatches (`truncated` says there were more). */
  maxMismatches?: number;
}

export interface BooksCheck {
  startedAt: Date;
  finishedAt: Date;
  since: Date | null;
  providersSince: Date | null;
  /** Where asking the providers stopped at `maxInvoices`; null when it went through. */
  providersAfter: string | null;
  invoicesAsked: number;
  mismatches: BooksMismatch[];
  unchecked: BooksUnchecked[];
  truncated: boolean;
}

export async function checkBooks(deps: BooksDeps, options: BooksCheckOptions = {}): Promise<BooksCheck> {
  const startedAt = deps.clock.now();
  const graceMs = options.graceMs ?? BOOKS_GRACE_MS;
  const limit = options.maxMismatches ?? MAX_MISMATCHES;
  const since = options.since ?? null;
  const mismatches: BooksMismatch[] = [];
  let truncated = false;
  const take = (found: { rows: BooksMismatch[]; more: boolean }) => {
    mismatches.push(...found.rows);
    truncated ||= found.more;
  };

  take(await ledgerAgainstInvoices(deps.db, since, limit));
  take(await capturesNotBalanced(deps.db, new Date(startedAt.getTime() - graceMs), limit));
  take(await periodsAgainstLedger(deps.db, startedAt, limit));

  const providersSince = options.providersSince ?? since;
  const asked =
    options.providers === false
      ? { mismatches: [], unchecked: [], asked: 0, after: null }
      : await ledgerAgainstProviders(deps, { ...options, providersSince, graceMs });
  mismatches.push(...asked.mismatches);

  truncated ||= mismatches.length > limit;
  return {
    startedAt,
    finishedAt: deps.clock.now(),
    since,
    providersSince: options.providers === false ? null : providersSince,
    providersAfter: asked.after,
    invoicesAsked: asked.asked,
    mismatches: mismatches.slice(0, limit),
    unchecked: asked.unchecked.slice(0, limit),
    truncated,
  };
}

export interface BooksJobCheckOptions {
  /** The database mismatches the last run found, checked again; null: the whole database. */
  carried: BooksMismatch[] | null;
  /** Changes one slice reads at most (books-changes.ts). */
  maxChanges: number;
  /** Slices are read one after another for this long at most (ms), while changes are left. */
  sliceForMs?: number;
  /** Ask the providers so; null asks none and keeps what the last run found there (`kept`). */
  providers: BooksCheckOptions | null;
  kept: { mismatches: BooksMismatch[]; unchecked: BooksUnchecked[] };
  graceMs?: number;
  maxMismatches?: number;
}

/**
 * The hourly job's check (books-store.ts): the database for what changed since its last run
 * (books-changes.ts), the providers as `checkBooks` asks them. Its report is the books' state as
 * a whole (what the last run found is looked at again, not dropped), so it is kept with no `since`.
 */
export async function checkBooksChanges(
  deps: BooksDeps,
  options: BooksJobCheckOptions,
): Promise<BooksCheck & { changesLeft: boolean; changesChecked: number }> {
  const startedAt = deps.clock.now();
  const graceMs = options.graceMs ?? BOOKS_GRACE_MS;
  const limit = options.maxMismatches ?? MAX_MISMATCHES;
  const database = await checkChangesUntil(deps.db, {
    now: startedAt,
    graceMs,
    limit,
    carried: options.carried,
    maxChanges: options.maxChanges,
    untilMs: performance.now() + (options.sliceForMs ?? 0),
  });
  const providersSince = options.providers?.providersSince ?? null;
  const asked = options.providers
    ? await ledgerAgainstProviders(deps, { ...options.providers, providersSince, graceMs })
    : { ...options.kept, asked: 0, after: null };
  const mismatches = [...database.mismatches, ...asked.mismatches];
  return {
    startedAt,
    finishedAt: deps.clock.now(),
    since: null,
    providersSince,
    providersAfter: asked.after,
    invoicesAsked: asked.asked,
    mismatches: mismatches.slice(0, limit),
    unchecked: asked.unchecked.slice(0, limit),
    truncated: database.truncated || mismatches.length > limit,
    changesLeft: database.changesLeft,
    changesChecked: database.changesChecked,
  };
}

/** Invoices a provider knows of: a card page, a saved-card charge, a QPay invoice, or ledger rows. */
function invoicesAtProviders(db: Kysely<Database>, since: Date | null) {
  return db
    .selectFrom('payment_invoices as i')
    .leftJoin('qpay_invoices as q', 'q.invoice_id', 'i.invoice_id')
    .select(['i.invoice_id', 'i.provider_token', 'i.charge_attempts', 'q.qpay_invoice_id'])
    .where((eb) =>
      eb.or([
        eb('i.provider_token', 'is not', null),
        eb('i.charge_attempts', '>', 0),
        eb('q.qpay_invoice_id', 'is not', null),
        eb.exists(
          eb
            .selectFrom('payment_ledger as l')
            .select('l.id')
            .whereRef('l.invoice_id', '=', 'i.invoice_id')
            .where('l.method', 'in', ['card', 'qpay']),
        ),
      ]),
    )
    .$if(since !== null, (query) =>
      query.where((eb) =>
        eb.or([
          // An invoice still open may be paid at any moment, whenever it was made.
          eb('i.status', '=', 'created'),
          eb('i.created_at', '>=', since as Date),
          eb('i.settled_at', '>=', since as Date),
          eb('q.created_at', '>=', since as Date),
          eb.exists(
            eb
              .selectFrom('payment_ledger as l')
              .select('l.id')
              .whereRef('l.invoice_id', '=', 'i.invoice_id')
              .where('l.created_at', '>=', since as Date),
          ),
        ]),
      ),
    );
}

/**
 * 2. The ledger against the providers, a page of invoices at a time: first the ones to recheck,
 * then those touched since `providersSince` in invoice order, up to `maxInvoices`.
 */
async function ledgerAgainstProviders(
  deps: BooksDeps,
  options: Omit<BooksCheckOptions, 'providersSince'> & { providersSince: Date | null; graceMs: number },
) {
  const pageSize = options.pageSize ?? PAGE_SIZE;
  const max = options.maxInvoices ?? Number.POSITIVE_INFINITY;
  const mismatches: BooksMismatch[] = [];
  const unchecked: BooksUnchecked[] = [];
  const asked = new Set<string>();

  const askPage = async (page: AskedInvoice[]) => {
    const fresh = page.filter((invoice) => !asked.has(invoice.invoice_id));
    const ledger = await ledgerMovements(
      deps.db,
      fresh.map((invoice) => invoice.invoice_id),
    );
    // Asked a few at once; reported in invoice order, so two checks of the same books read alike.
    const results: Awaited<ReturnType<typeof checkInvoiceAtProviders>>[] = [];
    let next = 0;
    const lane = async () => {
      while (next < fresh.length) {
        const index = next++;
        const invoice = fresh[index] as AskedInvoice;
        asked.add(invoice.invoice_id);
        results[index] = await checkInvoiceAtProviders(
          deps,
          invoice,
          ledger.get(invoice.invoice_id) ?? { card: [], qpay: [] },
          options.graceMs,
        );
      }
    };
    await Promise.all(Array.from({ length: PROVIDER_CONCURRENCY }, lane));
    for (const found of results) {
      mismatches.push(...found.mismatches);
      unchecked.push(...found.unchecked);
    }
  };

  const recheck = [...new Set(options.recheck ?? [])];
  for (let start = 0; start < recheck.length; start += pageSize) {
    const ids = recheck.slice(start, start + pageSize);
    await askPage(await invoicesAtProviders(deps.db, null).where('i.invoice_id', 'in', ids).execute());
  }

  let after = options.providersAfter;
  let count = 0;
  for (;;) {
    const room = Math.min(pageSize, max - count);
    if (room <= 0) return { mismatches, unchecked, asked: asked.size, after: after ?? null };
    let query = invoicesAtProviders(deps.db, options.providersSince).orderBy('i.invoice_id').limit(room);
    if (after !== undefined) query = query.where('i.invoice_id', '>', after);
    const page = await query.execute();
    await askPage(page);
    count += page.length;
    after = page.at(-1)?.invoice_id;
    if (page.length < room) return { mismatches, unchecked, asked: asked.size, after: null };
  }
}
