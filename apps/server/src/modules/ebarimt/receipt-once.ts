import { type Kysely, type QueryCreator, sql } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Deps } from '../../deps.js';
import type { ErrorLog } from '../../lib/logging.js';
import { GatewayError } from '../providers/exchange.js';
import { subscriberName, writePaymentLog } from '../providers/payment-log.js';
import type { ReceiptKind, ReceiptStatus } from './tables.js';
import './tables.js';

export type EbarimtDeps = Pick<Deps, 'db' | 'clock' | 'ebarimt' | 'reportError'>;

/** How long a claimed step is held before another process may take it (a crash mid-call). */
const CLAIM_MS = 2 * 60_000;
/** Retries wait 1, 2, 4, … minutes, at most an hour, until the tax authority takes the receipt. */
const MAX_BACKOFF_MINUTES = 60;

export interface ReceiptCompany {
  registry: string;
  tin: string;
  name: string;
}

/** An invoice just marked paid, as a statement's CTE `paid` answers it (activation-once.ts). */
interface PaidInvoice {
  invoice_id: string;
  ebarimt_registry: string | null;
  ebarimt_tin: string | null;
  ebarimt_company: string | null;
}
type CompanyColumn = 'ebarimt_registry' | 'ebarimt_tin' | 'ebarimt_company';

/**
 * Asks for the e-barimt of an invoice that has just been paid, in the statement that marks it
 * paid (activation-once.ts builds it around this CTE), so no paid invoice goes without one and it
 * costs no round trip of its own; the job queue issues it. A company receipt when the buyer gave
 * the company's registry, TIN and name, else a citizen's. One per invoice and kind (the primary
 * key): a second ask is a no-op.
 */
export function receiptRequestOfPaid<Paid extends PaidInvoice>(
  db: QueryCreator<Database & { paid: Paid }>,
  now: Date,
) {
  const given = (column: CompanyColumn) => sql<boolean>`coalesce(${sql.ref(`paid.${column}`)}, '') <> ''`;
  const company = sql<boolean>`(${given('ebarimt_registry')} and ${given('ebarimt_tin')} and ${given('ebarimt_company')})`;
  const ifCompany = (column: CompanyColumn) =>
    sql<string | null>`case when ${company} then ${sql.ref(`paid.${column}`)} end`;
  const at = sql<Date>`${now}::timestamptz`;
  return db
    .insertInto('ebarimt_receipts')
    .columns([
      'invoice_id',
      'kind',
      'company_registry',
      'company_tin',
      'company_name',
      'next_attempt_at',
      'created_at',
    ])
    .expression((eb) =>
      eb
        .selectFrom('paid')
        .select([
          'paid.invoice_id',
          sql<ReceiptKind>`case when ${company} then 'company' else 'citizen' end`.as('kind'),
          ifCompany('ebarimt_registry').as('company_registry'),
          ifCompany('ebarimt_tin').as('company_tin'),
          ifCompany('ebarimt_company').as('company_name'),
          at.as('next_attempt_at'),
          at.as('created_at'),
        ]),
    )
    .onConflict((oc) => oc.columns(['invoice_id', 'kind']).doNothing());
}

/**
 * A receipt's lottery number and QR data are kept only while the receipt is in force, to print
 * it (PosAPI 3.0 forbids keeping them otherwise; decision 0033): one leaving `issued` drops them.
 */
const NO_RECEIPT_CODES = { lottery: null, qr_data: null };

const backoffMs = (attempts: number) =>
  Math.min(MAX_BACKOFF_MINUTES, 2 ** Math.max(0, attempts - 1)) * 60_000;

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
 * Claims a step of one receipt: exactly one caller moves it from `from` to `to` while it is due
 * (its `next_attempt_at` has come, or the last claim ran out); concurrent callers wait on the row
 * and then match nothing. The claim holds the step for CLAIM_MS.
 */
async function claim(
  deps: Pick<EbarimtDeps, 'db' | 'clock'>,
  invoiceId: string,
  kind: ReceiptKind,
  from: ('pending' | 'issuing' | 'void_pending' | 'voiding')[],
  to: 'issuing' | 'voiding',
) {
  const now = deps.clock.now();
  return deps.db
    .updateTable('ebarimt_receipts')
    .set((eb) => ({
      status: to,
      attempts: eb('attempts', '+', 1),
      next_attempt_at: new Date(now.getTime() + CLAIM_MS),
      // PosAPI's bill id suffix, unique within a day: taken at the first claim, kept for retries.
      bill_suffix: sql<string>`coalesce(bill_suffix, lpad(nextval('ebarimt_bill_suffix_seq')::text, 6, '0'))`,
    }))
    .where('invoice_id', '=', invoiceId)
    .where('kind', '=', kind)
    .where('status', 'in', from)
    .where('next_attempt_at', '<=', now)
    .returningAll()
    .executeTakeFirst();
}

export type ReceiptStepOutcome = 'issued' | 'voided' | 'retrying' | 'waiting' | 'nothing';

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

/**
 * Takes back the e-barimt of a refunded invoice (console/refunds.ts), in the refund's transaction:
 * a receipt not issued yet is superseded (one being issued right now is voided once issued), an
 * issued one, citizen's or company's, is voided by the job from now on. Answers how many issued
 * receipts are to be voided.
 */
export async function voidInvoiceReceipts(
  db: Kysely<Database>,
  invoiceId: string,
  now: Date,
): Promise<number> {
  await db
    .updateTable('ebarimt_receipts')
    .set({ status: 'superseded', next_attempt_at: null })
    .where('invoice_id', '=', invoiceId)
    .where('status', 'in', ['pending', 'issuing'])
    .execute();
  const voiding = await db
    .updateTable('ebarimt_receipts')
    .set({ status: 'void_pending', next_attempt_at: now, ...NO_RECEIPT_CODES })
    .where('invoice_id', '=', invoiceId)
    .where('status', '=', 'issued')
    .returning('kind')
    .execute();
  return voiding.length;
}

async function issue(
  deps: EbarimtDeps,
  invoiceId: string,
  kind: ReceiptKind,
  log?: ErrorLog,
): Promise<ReceiptStepOutcome> {
  const claimed = await claim(deps, invoiceId, kind, ['pending', 'issuing'], 'issuing');
  if (!claimed) return 'nothing';
  const invoice = await deps.db
    .selectFrom('payment_invoices as i')
    .innerJoin('packages as p', 'p.id', 'i.package_id')
    .innerJoin('users as u', 'u.id', 'i.user_id')
    .select([
      'i.amount',
      'i.method',
      'i.user_id',
      'p.name_mn',
      'p.name_en',
      'u.first_name',
      'u.last_name',
      'u.username',
    ])
    .where('i.invoice_id', '=', invoiceId)
    .executeTakeFirstOrThrow();
  // Who paid for what, on each line of the invoice's log.
  const party = {
    userId: invoice.user_id,
    subscriberName: subscriberName(invoice),
    packageName: invoice.name_en,
    purchasePrice: invoice.amount,
  };
  const writeLog = (entry: Omit<Parameters<typeof writePaymentLog>[1], 'orderNumber' | 'currentProcess'>) =>
    writePaymentLog(deps, { ...party, orderNumber: invoiceId, currentProcess: 'ebarimt', ...entry });
  try {
    const exchange = await deps.ebarimt.issueReceipt({
      totalAmount: invoice.amount,
      customerTin: kind === 'company' ? claimed.company_tin : null,
      itemName: `Tunes ${invoice.name_mn}`,
      // QPay and cards are both non-cash payments to PosAPI.
      payment: 'PAYMENT_CARD',
      billIdSuffix: claimed.bill_suffix ?? '000000',
    });
    const receipt = exchange.result;
    const issuedAt = deps.clock.now();
    // Superseded while the call was made (a refund, a company receipt): issued, so it is voided.
    const stillWanted = sql<boolean>`status = 'issuing'`;
    await deps.db
      .updateTable('ebarimt_receipts')
      .set({
        status: sql<ReceiptStatus>`case when ${stillWanted} then 'issued' else 'void_pending' end`,
        bill_id: receipt.id,
        lottery: sql<string | null>`case when ${stillWanted} then ${receipt.lottery}::text end`,
        qr_data: sql<string | null>`case when ${stillWanted} then ${receipt.qrData}::text end`,
        receipt_date: receipt.date,
        issued_at: issuedAt,
        next_attempt_at: sql<Date | null>`case when ${stillWanted} then null else ${issuedAt}::timestamptz end`,
        last_error: null,
      })
      .where('invoice_id', '=', invoiceId)
      .where('kind', '=', kind)
      .execute();
    await writeLog({
      type: 'info',
      message: `${kind} e-barimt issued: ${receipt.id}`,
      request: exchange.request,
      response: exchange.response,
    });
    return 'issued';
  } catch (error) {
    await retryLater(deps, invoiceId, kind, claimed.attempts, 'pending', error);
    const gateway = error instanceof GatewayError ? error : null;
    await writeLog({
      type: 'error',
      message: `${kind} e-barimt not issued (attempt ${claimed.attempts}): ${(error as Error).message}`,
      request: gateway?.request,
      response: gateway?.response,
    });
    if (!gateway) log?.error({ err: error, invoiceId }, 'e-barimt issue failed');
    return 'retrying';
  }
}

async function voidReceipt(
  deps: EbarimtDeps,
  invoiceId: string,
  kind: ReceiptKind,
  log?: ErrorLog,
): Promise<ReceiptStepOutcome> {
  const claimed = await claim(deps, invoiceId, kind, ['void_pending', 'voiding'], 'voiding');
  if (!claimed?.bill_id || !claimed.receipt_date) return 'nothing';
  try {
    await deps.ebarimt.voidReceipt(claimed.bill_id, claimed.receipt_date);
    await deps.db
      .updateTable('ebarimt_receipts')
      .set({ status: 'voided', next_attempt_at: null, last_error: null })
      .where('invoice_id', '=', invoiceId)
      .where('kind', '=', kind)
      .execute();
    return 'voided';
  } catch (error) {
    await retryLater(deps, invoiceId, kind, claimed.attempts, 'void_pending', error);
    if (!(error instanceof GatewayError)) log?.error({ err: error, invoiceId }, 'e-barimt void failed');
    return 'retrying';
  }
}

async function retryLater(
  deps: Pick<EbarimtDeps, 'db' | 'clock'>,
  invoiceId: string,
  kind: ReceiptKind,
  attempts: number,
  status: 'pending' | 'void_pending',
  error: unknown,
) {
  await deps.db
    .updateTable('ebarimt_receipts')
    .set({
      status,
      next_attempt_at: new Date(deps.clock.now().getTime() + backoffMs(attempts)),
      last_error: String((error as Error).message ?? error).slice(0, 500),
    })
    .where('invoice_id', '=', invoiceId)
    .where('kind', '=', kind)
    .execute();
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
