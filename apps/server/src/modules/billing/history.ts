import type { Ebarimt, EbarimtSummary, PaymentEntry, Receipt } from '@tunes/shared/billing';
import type { Deps } from '../../deps.js';
import { notFound } from '../../lib/errors.js';
import { qrDataUrl } from '../../lib/qr-image.js';
import { ebarimtViewOf, ebarimtViews } from '../ebarimt/receipt-view.js';
import { addMonths } from '../premium/period.js';
import { subscriberName } from '../providers/payment-log.js';

/** The seller on every receipt. */
const SELLER = { name: 'Tunes LLC', registry: '6543210' };
/** Mongolia's VAT, included in every price. */
const VAT_RATE = 0.1;
const HISTORY_LIMIT = 200;

function history(deps: Pick<Deps, 'db'>, userId: string) {
  return deps.db
    .selectFrom('payment_invoices as i')
    .innerJoin('packages as p', 'p.id', 'i.package_id')
    .select([
      'i.invoice_id',
      'i.created_at',
      'i.settled_at',
      'i.amount',
      'i.currency',
      'i.method',
      'i.kind',
      'i.status',
      'i.period_start',
      'i.period_end',
      'i.card_brand',
      'i.card_last4',
      'i.discount',
      'i.subscription_id',
      'p.name_en',
      'p.name_mn',
    ])
    .where('i.user_id', '=', userId);
}
type HistoryRow = Awaited<ReturnType<ReturnType<typeof history>['executeTakeFirstOrThrow']>>;

/**
 * What the history names of an e-barimt: never its lottery number or QR data, which PosAPI 3.0
 * lets us keep only to print on the receipt itself (decision 0033).
 */
const summaryOf = (ebarimt: Ebarimt | null): EbarimtSummary | null =>
  ebarimt && { billId: ebarimt.billId, company: ebarimt.company };

function toEntry(row: HistoryRow, ebarimt: EbarimtSummary | null): PaymentEntry {
  const paid = row.status === 'paid';
  return {
    invoiceId: row.invoice_id,
    createdAt: row.created_at.toISOString(),
    paidAt: paid && row.settled_at ? row.settled_at.toISOString() : null,
    amount: row.amount,
    currency: row.currency,
    packageName: [
      { Language: 'en', Value: row.name_en },
      { Language: 'mn', Value: row.name_mn },
    ],
    method: row.method,
    kind: row.kind,
    status: row.status,
    receipt: paid ? { url: `/receipts/${encodeURIComponent(row.invoice_id)}`, ebarimt } : null,
  };
}

/**
 * `GET /api/users/me/payments` (product.md §12): the listener's invoices, newest first. A checkout
 * abandoned before the gateway answered is left out: nothing was asked of the listener.
 */
export async function paymentHistory(deps: Pick<Deps, 'db'>, userId: string): Promise<PaymentEntry[]> {
  const rows = await history(deps, userId)
    .where((eb) => eb.or([eb('i.status', '<>', 'failed'), eb('i.kind', '<>', 'purchase')]))
    .orderBy('i.created_at', 'desc')
    .orderBy('i.invoice_id', 'desc')
    .limit(HISTORY_LIMIT)
    .execute();
  const views = await ebarimtViews(
    deps,
    rows.filter((row) => row.status === 'paid').map((row) => row.invoice_id),
  );
  return rows.map((row) => toEntry(row, summaryOf(ebarimtViewOf(views, row.invoice_id).ebarimt)));
}

/** `GET /api/users/me/receipts/{invoiceId}`: a paid invoice as its printable receipt shows it. */
export async function paymentReceipt(
  deps: Pick<Deps, 'db'>,
  userId: string,
  invoiceId: string,
): Promise<Receipt> {
  const row = await history(deps, userId)
    .where('i.invoice_id', '=', invoiceId)
    .where('i.status', '=', 'paid')
    .executeTakeFirst();
  if (!row) throw notFound('There is no such receipt.');
  const buyer = await deps.db
    .selectFrom('users')
    .select(['first_name', 'last_name', 'username', 'phone_number', 'primary_email'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  let period: Receipt['period'] = null;
  if (row.period_start && row.period_end) {
    period = { start: row.period_start.toISOString(), end: row.period_end.toISOString() };
  } else if (row.subscription_id) {
    const first = await deps.db
      .selectFrom('subscriptions as s')
      .innerJoin('packages as p', 'p.id', 's.package_id')
      .select(['s.start_date', 'p.duration_months'])
      .where('s.invoice_id', '=', invoiceId)
      .executeTakeFirst();
    if (first) {
      const end = addMonths(first.start_date, first.duration_months);
      period = { start: first.start_date.toISOString(), end: end.toISOString() };
    }
  }
  const view = ebarimtViewOf(await ebarimtViews(deps, [invoiceId]), invoiceId);
  const entry = toEntry(row, null);
  return {
    ...entry,
    receipt: entry.receipt && { ...entry.receipt, ebarimt: view.ebarimt },
    buyer: { name: subscriberName(buyer), phone: buyer.phone_number, email: buyer.primary_email },
    seller: SELLER,
    period,
    card: row.card_brand && row.card_last4 ? { brand: row.card_brand, last4: row.card_last4 } : null,
    vat: Math.round((row.amount * VAT_RATE) / (1 + VAT_RATE)),
    discount: row.discount,
    ebarimtQr: view.ebarimt ? await qrDataUrl(view.ebarimt.qrData) : null,
    companyReceipt: view.companyReceipt,
  };
}
