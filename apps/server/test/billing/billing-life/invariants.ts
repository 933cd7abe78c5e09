import { expect } from 'vitest';
import { observePausesAndMethods, pauseViolations } from './pause-invariants.js';
import { periodViolations } from './periods.js';
import { type Books, kept, ledgerCaptures, type Movement, providerCaptures, readBooks } from './snapshot.js';
import type { World } from './world.js';

/**
 * The invariants of the whole billing life, checked after every command against the database
 * and the sandboxes, for the run's listeners only. Each answers its violations as sentences.
 */

const LIVE_RECEIPT = new Set(['pending', 'issuing', 'issued']);
const DONE_VOID = new Set(['voided', 'superseded']);

const told = (movement: Movement) =>
  `${movement.method} ${movement.reference} of ${movement.amount} (refunded ${movement.refunded})`;

/**
 * 1. The providers and the ledger agree capture by capture: what was taken (by reference and
 * amount) and what of it was given back. A QPay payment the server cannot have heard of yet
 * (`world.unheard`) may be missing from the ledger, and only that.
 */
function providersAgreeWithLedger(books: Books, world: World) {
  const found: string[] = [];
  const unheard = new Set<string>();
  let unheardKept = 0;
  const atProviders = providerCaptures(books);
  const inLedger = ledgerCaptures(books);
  for (const { invoice_id: invoiceId } of books.invoices) {
    const theirs = atProviders.get(invoiceId) ?? [];
    const ours = [...(inLedger.get(invoiceId) ?? [])];
    for (const capture of theirs) {
      const index = ours.findIndex(
        (each) => each.method === capture.method && each.reference === capture.reference,
      );
      const match = ours[index];
      if (!match) {
        if (capture.method === 'qpay' && capture.refunded === 0 && world.unheard.has(invoiceId)) {
          unheard.add(invoiceId);
          unheardKept += capture.amount;
          continue;
        }
        found.push(`1. ${invoiceId}: the provider has ${told(capture)}; the ledger has no such capture`);
        continue;
      }
      ours.splice(index, 1);
      if (match.amount !== capture.amount || match.refunded !== capture.refunded) {
        found.push(`1. ${invoiceId}: the provider has ${told(capture)}, the ledger ${told(match)}`);
      }
    }
    for (const capture of ours)
      found.push(`1. ${invoiceId}: the ledger has ${told(capture)}; no provider does`);
  }
  return { found, unheard, unheardKept };
}

/**
 * 2. No invoice keeps more than its price, and what it keeps is what its status says: one
 * applied capture at most; a surplus capture given back at once; `paid` keeps its amount,
 * `refunded` nothing, `partly_refunded` something between, an unpaid invoice nothing.
 * 3 (money). The run keeps, at the providers, exactly the prices of what it paid for.
 */
function keptMatchesStatus(books: Books): { found: string[]; keptAtProviders: number; priced: number } {
  const found: string[] = [];
  const inLedger = ledgerCaptures(books);
  const atProviders = providerCaptures(books);
  let keptAtProviders = 0;
  let priced = 0;
  for (const invoice of books.invoices) {
    const id = `${invoice.invoice_id} (${invoice.kind}, ${invoice.status}, ${invoice.amount})`;
    const captures = inLedger.get(invoice.invoice_id) ?? [];
    const applied = captures.filter((capture) => capture.outcome === 'applied');
    const surplus = captures.filter((capture) => capture.outcome !== 'applied');
    const keptApplied = kept(applied);
    if (applied.length > 1) found.push(`2. ${id}: ${applied.length} captures applied`);
    if (kept(surplus) !== 0) found.push(`2. ${id}: a surplus capture keeps ${kept(surplus)}`);
    if (keptApplied > invoice.amount) found.push(`2. ${id}: keeps ${keptApplied}, more than its amount`);
    const paidOnce = applied.length === 1 || invoice.amount === 0;
    switch (invoice.status) {
      case 'paid':
        if (keptApplied !== invoice.amount || !paidOnce)
          found.push(`2. ${id}: paid but keeps ${keptApplied}`);
        priced += invoice.amount;
        break;
      case 'partly_refunded':
        if (!(keptApplied > 0 && keptApplied < invoice.amount)) {
          found.push(`2. ${id}: partly refunded but keeps ${keptApplied}`);
        }
        priced += keptApplied;
        break;
      case 'refunded':
        if (keptApplied !== 0 || !paidOnce) found.push(`2. ${id}: refunded but keeps ${keptApplied}`);
        break;
      default:
        if (applied.length > 0) found.push(`2. ${id}: not paid, yet a capture was applied to it`);
    }
    keptAtProviders += kept(atProviders.get(invoice.invoice_id) ?? []);
  }
  return { found, keptAtProviders, priced };
}

/**
 * 4. No account is charged after its deletion: nothing applied, nothing kept at a provider and
 * no invoice made after `deleted_at`; no card on file, no period that renews.
 */
function nothingAfterDeletion(books: Books, unheard: Set<string>): string[] {
  const found: string[] = [];
  const inLedger = ledgerCaptures(books);
  const atProviders = providerCaptures(books);
  for (const user of books.users) {
    const deletedAt = user.deleted_at;
    if (!deletedAt) continue;
    const after = (at: Date) => at.getTime() > deletedAt.getTime();
    for (const invoice of books.invoices.filter((each) => each.user_id === user.id)) {
      const id = invoice.invoice_id;
      if (after(invoice.created_at)) found.push(`4. ${id}: made after the account was deleted`);
      for (const capture of inLedger.get(id) ?? []) {
        if (capture.outcome === 'applied' && after(capture.at)) {
          found.push(`4. ${id}: ${told(capture)} applied after the account was deleted`);
        }
      }
      for (const capture of atProviders.get(id) ?? []) {
        const waiting = capture.method === 'qpay' && unheard.has(id);
        if (after(capture.at) && capture.amount > capture.refunded && !waiting) {
          found.push(`4. ${id}: the provider keeps ${told(capture)} taken after the account was deleted`);
        }
      }
    }
    if (books.savedCards.some((card) => card.user_id === user.id))
      found.push(`4. ${user.id}: deleted, card kept`);
    for (const period of books.subscriptions.filter((each) => each.owner_id === user.id)) {
      if (period.is_auto_renew || period.next_billing_at) {
        found.push(`4. ${user.id}: deleted, period ${period.id} still renews`);
      }
    }
  }
  return found;
}

/**
 * 5. Every paid invoice has one e-barimt that is or will be valid; a refunded one has none; a
 * partly refunded one had its receipt taken back (voided, or superseded before it was issued)
 * and holds at most one valid (today none: the console issues none for the rest,
 * console/refunds.ts); an invoice never paid has none. `settled` (after the due jobs ran): the
 * valid one is issued, and the ones taken back are voided.
 */
function receiptsMatch(books: Books, settled: boolean): string[] {
  const found: string[] = [];
  for (const invoice of books.invoices) {
    const receipts = books.receipts.filter((receipt) => receipt.invoice_id === invoice.invoice_id);
    const live = receipts.filter((receipt) => LIVE_RECEIPT.has(receipt.status));
    const takenBack = receipts.filter((receipt) => !LIVE_RECEIPT.has(receipt.status));
    const statuses = receipts.map((receipt) => `${receipt.kind}:${receipt.status}`).join(', ') || 'none';
    const id = `5. ${invoice.invoice_id} (${invoice.kind}, ${invoice.status}): receipts ${statuses}`;
    const issued = live.every((receipt) => receipt.status === 'issued');
    const voided = takenBack.every((receipt) => DONE_VOID.has(receipt.status));
    if (invoice.status === 'paid') {
      if (live.length !== 1 || (settled && !issued)) found.push(id);
    } else if (invoice.status === 'refunded' || invoice.status === 'partly_refunded') {
      const allowedLive = invoice.status === 'refunded' ? 0 : 1;
      if (live.length > allowedLive || takenBack.length === 0 || (settled && !(issued && voided)))
        found.push(id);
    } else if (receipts.length > 0) found.push(id);
  }
  return found;
}

/** Reads the books and fails with every violation found; `settled` after the due jobs ran. */
export async function checkInvariants(world: World, options: { settled?: boolean } = {}) {
  const books = await readBooks(world);
  const agreement = providersAgreeWithLedger(books, world);
  const money = keptMatchesStatus(books);
  const keptHeard = money.keptAtProviders - agreement.unheardKept;
  const found = [
    ...agreement.found,
    ...money.found,
    ...(keptHeard === money.priced
      ? []
      : [`3. the providers keep ${keptHeard} of the run; the periods given cost ${money.priced}`]),
    ...periodViolations(books),
    ...nothingAfterDeletion(books, agreement.unheard),
    ...receiptsMatch(books, options.settled ?? false),
    ...pauseViolations(books, world),
  ];
  expect(found, 'billing invariants').toEqual([]);
  observePausesAndMethods(books, world);
  // Known to the server now: the lag allowance ends.
  for (const invoiceId of world.unheard)
    if (!agreement.unheard.has(invoiceId)) world.unheard.delete(invoiceId);
  return books;
}
