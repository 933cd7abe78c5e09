import { sql } from 'kysely';
import type { Deps } from '../../deps.js';
import type { ErrorLog } from '../../lib/logging.js';
import { GatewayError } from '../providers/exchange.js';
import { subscriberName, writePaymentLog } from '../providers/payment-log.js';
import type { ReceiptKind, ReceiptStatus } from './tables.js';
import './tables.js';

/**
 * The calls to the tax authority (PosAPI) for one receipt: issue it, void it; each made by the one
 * caller that claimed the step, and retried later with a growing wait when it fails.
 */
export type EbarimtDeps = Pick<Deps, 'db' | 'clock' | 'ebarimt' | 'reportError'>;

/** How long a claimed step is held before another process may take it (a crash mid-call). */
const CLAIM_MS = 2 * 60_000;
/** Retries wait 1, 2, 4, … minutes, at most an hour, until the tax authority takes the receipt. */
const MAX_BACKOFF_MINUTES = 60;

export type ReceiptStepOutcome = 'issued' | 'voided' | 'retrying' | 'waiting' | 'nothing';

const backoffMs = (attempts: number) =>
  Math.min(MAX_BACKOFF_MINUTES, 2 ** Math.max(0, attempts - 1)) * 60_000;

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

export async function issue(
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
      'i.discount',
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
      // An offer's discount (modules/offers): the item at its list price, its total what was paid.
      listPrice: invoice.amount + invoice.discount,
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

export async function voidReceipt(
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
