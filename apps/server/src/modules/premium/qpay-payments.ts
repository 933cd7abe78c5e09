import type { QpayCheckout } from '@tunes/shared/billing';
import { conflict, notFound } from '../../lib/errors.js';
import { type Exchange, GatewayError, type ProviderStatus } from './gateway.js';
import type { PaymentDeps } from './payment-deps.js';
import { findInvoiceParty, writePaymentLog } from './payment-log.js';
import type { QpayDeeplink } from './qpay-gateway.js';
import './tables.js';

/** Where QPay calls us when an invoice is paid; it carries our invoice id and nothing else. */
export const qpayCallbackUrl = (publicUrl: string, invoiceId: string) =>
  `${publicUrl}/api/payments/qpay/callback?${new URLSearchParams({ invoiceId }).toString()}`;

export type QpayDeps = Pick<PaymentDeps, 'db' | 'clock' | 'config' | 'qpay' | 'reportError'>;

interface StoredQpayInvoice {
  qpay_invoice_id: string;
  qr_text: string;
  qr_image: string;
  short_url: string;
  deeplinks: unknown;
}

function view(
  invoice: { invoice_id: string; amount: number; currency: string },
  stored: StoredQpayInvoice,
): QpayCheckout {
  return {
    invoiceId: invoice.invoice_id,
    method: 'qpay',
    qrImage: stored.qr_image,
    qrText: stored.qr_text,
    shortUrl: stored.short_url,
    deeplinks: stored.deeplinks as QpayDeeplink[],
    amount: invoice.amount,
    currency: invoice.currency,
  };
}

const storedQpayInvoice = (deps: Pick<PaymentDeps, 'db'>, invoiceId: string) =>
  deps.db
    .selectFrom('qpay_invoices')
    .select(['qpay_invoice_id', 'qr_text', 'qr_image', 'short_url', 'deeplinks'])
    .where('invoice_id', '=', invoiceId)
    .executeTakeFirst();

/**
 * The QPay invoice of one of our open invoices: opened at QPay on first ask (our invoice id as
 * `sender_invoice_no`, the callback URL naming it), the same one afterwards, so a reloaded page
 * shows the QR it showed. Two askers at once: the first stored wins, the other QPay invoice is
 * cancelled. A provider failure is a GatewayError for the caller to answer.
 */
export async function openQpayPayment(deps: QpayDeps, invoiceId: string): Promise<QpayCheckout> {
  const invoice = await deps.db
    .selectFrom('payment_invoices as i')
    .innerJoin('packages as p', 'p.id', 'i.package_id')
    .select(['i.invoice_id', 'i.amount', 'i.currency', 'i.status', 'p.name_en', 'p.name_mn'])
    .where('i.invoice_id', '=', invoiceId)
    .executeTakeFirst();
  if (!invoice) throw notFound('There is no such invoice.');
  const existing = await storedQpayInvoice(deps, invoiceId);
  if (existing) return view(invoice, existing);
  if (invoice.status !== 'created') throw conflict('This invoice is closed.', 'invoice_closed');

  const party = await findInvoiceParty(deps, invoiceId);
  const exchange = await deps.qpay.createInvoice({
    senderInvoiceNo: invoiceId,
    description: `Tunes ${invoice.name_mn} / ${invoice.name_en}`.slice(0, 255),
    amount: invoice.amount,
    callbackUrl: qpayCallbackUrl(deps.config.PUBLIC_URL, invoiceId),
  });
  const qpayInvoice = exchange.result;
  const stored = await deps.db
    .insertInto('qpay_invoices')
    .values({
      invoice_id: invoiceId,
      qpay_invoice_id: qpayInvoice.invoiceId,
      qr_text: qpayInvoice.qrText,
      qr_image: qpayInvoice.qrImage,
      short_url: qpayInvoice.shortUrl,
      deeplinks: JSON.stringify(qpayInvoice.deeplinks),
      created_at: deps.clock.now(),
    })
    .onConflict((oc) => oc.column('invoice_id').doNothing())
    .returning('invoice_id')
    .executeTakeFirst();
  await writePaymentLog(deps, {
    ...party,
    orderNumber: invoiceId,
    currentProcess: 'checkout',
    type: 'info',
    message: stored ? 'QPay invoice created' : 'QPay invoice created twice; the second is cancelled',
    request: exchange.request,
    response: exchange.response,
  });
  if (!stored) {
    await deps.qpay.cancelInvoice(qpayInvoice.invoiceId).catch((error: unknown) => {
      deps.reportError(error, `cancelling the spare QPay invoice of ${invoiceId} failed`);
    });
  }
  const winner = await storedQpayInvoice(deps, invoiceId);
  if (!winner) throw new Error(`the QPay invoice of ${invoiceId} was not stored`);
  return view(invoice, winner);
}

/** The QPay invoice id opened for one of ours, if any. */
export async function qpayInvoiceOf(deps: Pick<PaymentDeps, 'db'>, invoiceId: string) {
  const row = await deps.db
    .selectFrom('qpay_invoices')
    .select(['qpay_invoice_id', 'cancelled_at'])
    .where('invoice_id', '=', invoiceId)
    .executeTakeFirst();
  return row ?? null;
}

export interface QpayCheck {
  status: ProviderStatus;
  amount: number;
  currency: string;
  /** Each PAID payment: a capture of its own (capture-once.ts), named by QPay's payment id. */
  captures: { reference: string; amount: number; currency: string }[];
}

/**
 * `payment/check` of a QPay invoice, read as a card gateway's answer: paid when a payment is
 * PAID (the amount paid), declined when every try FAILED, pending otherwise.
 */
export async function checkQpayPayment(
  deps: Pick<PaymentDeps, 'qpay'>,
  qpayInvoiceId: string,
): Promise<Exchange<QpayCheck>> {
  const exchange = await deps.qpay.checkPayment(qpayInvoiceId);
  const { rows, paidAmount } = exchange.result;
  const paid = rows.filter((row) => row.status === 'PAID');
  const captures = paid.map((row) => ({
    reference: row.paymentId,
    amount: row.amount,
    currency: row.currency,
  }));
  let result: QpayCheck;
  if (paid.length > 0) {
    result = { status: 'paid', amount: paidAmount, currency: paid[0]?.currency ?? 'MNT', captures };
  } else if (rows.length > 0 && rows.every((row) => row.status === 'FAILED')) {
    result = { status: 'declined', amount: 0, currency: rows[0]?.currency ?? 'MNT', captures };
  } else {
    result = { status: 'pending', amount: 0, currency: 'MNT', captures };
  }
  return { ...exchange, result };
}

/**
 * Cancels the QPay invoice before ours is closed (declined or expired), so no payment can arrive
 * afterwards. False when QPay refused: it may have been paid meanwhile, and the next check tells.
 */
export async function cancelQpayInvoice(
  deps: Pick<PaymentDeps, 'db' | 'clock' | 'qpay'>,
  invoiceId: string,
): Promise<Exchange<null> | GatewayError | null> {
  const row = await qpayInvoiceOf(deps, invoiceId);
  if (!row || row.cancelled_at) return null;
  try {
    const exchange = await deps.qpay.cancelInvoice(row.qpay_invoice_id);
    await deps.db
      .updateTable('qpay_invoices')
      .set({ cancelled_at: deps.clock.now() })
      .where('invoice_id', '=', invoiceId)
      .execute();
    return exchange;
  } catch (error) {
    if (error instanceof GatewayError) return error;
    throw error;
  }
}
