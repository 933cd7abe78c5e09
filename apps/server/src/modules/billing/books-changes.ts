import type { BooksMismatch } from '@tunes/shared/books-codes';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.js';
import {
  type BooksScope,
  capturesNotBalanced,
  ledgerAgainstInvoices,
  periodsAgainstLedger,
} from './books-ledger.js';
import './books-tables.js';

/**
 * The database parts of the books check for what changed (decision 0039): the database writes a
 * row to `books_changes` for every write that can change what the check finds (migration
 * 202612170720p), whatever code, or person, made it. A run reads a bounded slice of those rows,
 * checks the invoices, periods and ledger rows they name, and what the last run found wrong
 * (it may be mended, or still wrong: it is reported again), and deletes the rows it read, in one
 * repeatable-read transaction: a change committed while it runs is not in its snapshot, stays,
 * and is the next run's. Each query is a few index lookups per item: linear in the changes.
 */

export interface ChangesCheck {
  mismatches: BooksMismatch[];
  truncated: boolean;
  /** What was looked at; null: everything. */
  scope: BooksScope | null;
  /** Changes read (and forgotten) by this run. */
  changesChecked: number;
  /** More changes were waiting than one run takes. */
  changesLeft: boolean;
}

export interface ChangesCheckOptions {
  now: Date;
  graceMs: number;
  limit: number;
  /**
   * The database mismatches the last run reported, checked again; null checks the whole
   * database instead (the first run, or after a report that could not list them all).
   */
  carried: BooksMismatch[] | null;
  /** Changes one run reads at most. */
  maxChanges: number;
}

async function scopeOf(db: Kysely<Database>, changes: ChangeRow[], carried: BooksMismatch[]) {
  const invoices = new Set<string>();
  const subscriptions = new Set<string>();
  const ledger = new Set<string>();
  for (const change of [...changes, ...carried.map(asChange)]) {
    if (change.invoice_id) invoices.add(change.invoice_id);
    if (change.subscription_id) subscriptions.add(change.subscription_id);
    if (change.ledger_id !== null) ledger.add(String(change.ledger_id));
  }
  // The periods an invoice backs or was made for: a refund may leave one without payment.
  if (invoices.size > 0) {
    const ids = [...invoices];
    const { rows } = await sql<{ id: string }>`
      select id from subscriptions where invoice_id = any(cast(${ids} as text[]))
      union
      select subscription_id from payment_invoices
      where invoice_id = any(cast(${ids} as text[])) and subscription_id is not null`.execute(db);
    for (const row of rows) subscriptions.add(row.id);
  }
  return { invoices: [...invoices], subscriptions: [...subscriptions], ledger: [...ledger] } as BooksScope;
}

interface ChangeRow {
  invoice_id: string | null;
  subscription_id: string | null;
  ledger_id: string | number | null;
}

const asChange = (found: BooksMismatch): ChangeRow => ({
  invoice_id: found.invoiceId ?? null,
  subscription_id: found.subscriptionId ?? null,
  ledger_id: null,
});

/** The three database parts (books-ledger.ts) over a scope (null: everything). */
async function databaseParts(
  db: Kysely<Database>,
  options: Pick<ChangesCheckOptions, 'now' | 'graceMs' | 'limit'>,
  scope: BooksScope | null,
) {
  const mismatches: BooksMismatch[] = [];
  let truncated = false;
  const take = (found: { rows: BooksMismatch[]; more: boolean }) => {
    mismatches.push(...found.rows);
    truncated ||= found.more;
  };
  const cutoff = new Date(options.now.getTime() - options.graceMs);
  take(await ledgerAgainstInvoices(db, null, options.limit, scope));
  take(await capturesNotBalanced(db, cutoff, options.limit, scope));
  take(await periodsAgainstLedger(db, options.now, options.limit, scope));
  return { mismatches, truncated };
}

/** One run: a slice of the changes (or the whole database), checked, and the changes read forgotten. */
export function checkChanges(db: Kysely<Database>, options: ChangesCheckOptions): Promise<ChangesCheck> {
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (trx) => {
      if (options.carried === null) {
        const found = await databaseParts(trx, options, null);
        // Every change this snapshot sees is covered by the whole check; later ones stay.
        const forgotten = await trx.deleteFrom('books_changes').executeTakeFirst();
        return {
          ...found,
          scope: null,
          changesChecked: Number(forgotten.numDeletedRows),
          changesLeft: false,
        };
      }
      const rows = await trx
        .selectFrom('books_changes')
        .select(['id', 'invoice_id', 'subscription_id', 'ledger_id'])
        .orderBy('id')
        .limit(options.maxChanges + 1)
        .execute();
      const changes = rows.slice(0, options.maxChanges);
      const scope = await scopeOf(trx, changes, options.carried);
      const found = await databaseParts(trx, options, scope);
      if (changes.length > 0) {
        const ids = changes.map((change) => String(change.id));
        await sql`delete from books_changes where id = any(cast(${ids} as bigint[]))`.execute(trx);
      }
      return {
        ...found,
        scope,
        changesChecked: changes.length,
        changesLeft: rows.length > options.maxChanges,
      };
    });
}

/**
 * Slices one after another (each its own short transaction) while changes are left and `untilMs`
 * (a `performance.now()` time) has not passed: what a later slice looked at replaces what an
 * earlier one said of the same invoices and periods.
 */
export async function checkChangesUntil(
  db: Kysely<Database>,
  options: ChangesCheckOptions & { untilMs: number },
): Promise<ChangesCheck> {
  let result = await checkChanges(db, options);
  while (result.changesLeft && performance.now() < options.untilMs) {
    const next = await checkChanges(db, { ...options, carried: [] });
    const scope = next.scope as BooksScope;
    const invoices = new Set(scope.invoices);
    const periods = new Set(scope.subscriptions);
    const stale = (found: BooksMismatch) =>
      (found.invoiceId !== undefined && invoices.has(found.invoiceId)) ||
      (found.subscriptionId !== undefined && periods.has(found.subscriptionId));
    const mismatches = [...result.mismatches.filter((found) => !stale(found)), ...next.mismatches];
    result = {
      mismatches: mismatches.slice(0, options.limit),
      truncated: result.truncated || next.truncated || mismatches.length > options.limit,
      scope: null,
      changesChecked: result.changesChecked + next.changesChecked,
      changesLeft: next.changesLeft,
    };
  }
  return result;
}
