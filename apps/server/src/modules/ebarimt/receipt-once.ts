import type { ErrorLog } from '../../lib/logging.js';
import { type EbarimtDeps, issue, type ReceiptStepOutcome, voidReceipt } from './receipt-calls.js';
import { NO_RECEIPT_CODES } from './receipt-requests.js';
import './tables.js';

/** An invoice's receipts, citizen's and company's. */
async function rowsOf(deps: Pick<EbarimtDeps, 'db'>, invoiceId: string) {
  const rows = await deps.db
    .selectFrom('ebarimt_receipts')
    .selectAll()
    .where('invoice_id', '=', invoiceId)
    .execute();
  return {
    citizen: rows.find((row) => row.kind === 'citizen'),
    company: rows.find((row) => row.kind === 'company'),
  };
}

/**
 * The e-barimt work of one paid invoice (the `ebarimt.issue` job, keyed by invoice): issue the
 * receipt asked for — a company one first, which replaces a citizen one (superseded before it
 * was issued, voided after) — void the receipts of a refunded invoice (either kind), and retry a
 * failed call later. Never twice for one invoice and
 * kind: each call to the tax authority is made by the one caller that claimed the step.
 */
export async function runReceiptStep(
  deps: EbarimtDeps,
  invoiceId: string,
  log?: ErrorLog,
): Promise<ReceiptStepOutcome> {
  let outcome: ReceiptStepOutcome = 'nothing';
  const { citizen, company } = await rowsOf(deps, invoiceId);
  const now = deps.clock.now();
  const due = (row: { next_attempt_at: Date | null } | undefined) =>
    Boolean(row?.next_attempt_at && row.next_attempt_at <= now);

  if (company && (company.status === 'pending' || company.status === 'issuing') && due(company)) {
    if (citizen?.status === 'issuing' && !due(citizen)) return 'waiting';
    // Not issued yet: the company receipt takes its place.
    await deps.db
      .updateTable('ebarimt_receipts')
      .set({ status: 'superseded', next_attempt_at: null })
      .where('invoice_id', '=', invoiceId)
      .where('kind', '=', 'citizen')
      .where('status', 'in', ['pending', 'issuing'])
      .execute();
    outcome = await issue(deps, invoiceId, 'company', log);
    if (outcome === 'issued') {
      await deps.db
        .updateTable('ebarimt_receipts')
        .set({ status: 'void_pending', next_attempt_at: deps.clock.now(), ...NO_RECEIPT_CODES })
        .where('invoice_id', '=', invoiceId)
        .where('kind', '=', 'citizen')
        .where('status', '=', 'issued')
        .execute();
    }
  }

  // A refunded invoice's company receipt is voided as a replaced citizen one is.
  if (company && (company.status === 'void_pending' || company.status === 'voiding') && due(company)) {
    outcome = await voidReceipt(deps, invoiceId, 'company', log);
  }

  const fresh = company ? (await rowsOf(deps, invoiceId)).citizen : citizen;
  if (!fresh || !due(fresh)) return outcome;
  if (fresh.status === 'pending' || fresh.status === 'issuing') {
    return company ? outcome : issue(deps, invoiceId, 'citizen', log);
  }
  if (fresh.status === 'void_pending' || fresh.status === 'voiding') {
    return voidReceipt(deps, invoiceId, 'citizen', log);
  }
  return outcome;
}

/** Invoices with an e-barimt step due at `now` (the job's scan), in key order after `after`. */
export async function dueReceipts(
  deps: Pick<EbarimtDeps, 'db'>,
  now: Date,
  limit: number,
  after: string | undefined,
): Promise<string[]> {
  let query = deps.db
    .selectFrom('ebarimt_receipts')
    .select('invoice_id')
    .distinct()
    .where('next_attempt_at', 'is not', null)
    .where('next_attempt_at', '<=', now)
    .orderBy('invoice_id')
    .limit(limit);
  if (after) query = query.where('invoice_id', '>', after);
  return (await query.execute()).map((row) => row.invoice_id);
}
