import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { QpayCheckout } from '@tunes/shared/billing';
import { API_ERROR_CODES } from '@tunes/shared/error-codes';
import type { Deps } from '../../deps.js';
import { conflict, notFound } from '../../lib/errors.js';
import type { ProviderStatus } from '../providers/card-gateway.js';
import { type Exchange, GatewayError } from '../providers/exchange.js';
import { subscriberName, writePaymentLog } from '../providers/payment-log.js';
import type { QpayDeeplink, QpayInvoice } from '../providers/qpay-gateway.js';
import './tables.js';

/**
 * Our invoice's number at QPay (`sender_invoice_no`, unique, at most 45 characters in QPay's
 * description; our invoice ids are 47–54): the UUID our ids begin with, without hyphens (32
 * characters), or for any other id the first 32 hex digits of its SHA-256. The `qpay_invoices`
 * row links our invoice to QPay's; this is only how QPay's own screens name it.
 */
export function qpaySenderInvoiceNo(invoiceId: string): string {
  const uuid = /^([0-9a-f]{8})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{12})/i.exec(invoiceId);
  if (uuid) return uuid.slice(1).join('').toLowerCase();
  return createHash('sha256').update(invoiceId).digest('hex').slice(0, 32);
}

/** Where QPay calls us when an invoice is paid; it carries our invoice id and nothing else. */
export const qpayCallbackUrl = (publicUrl: string, invoiceId: string) =>
  `${publicUrl}/api/payments/qpay/callback?${new URLSearchParams({ invoiceId }).toString()}`;

export type QpayDeps = Pick<Deps, 'db' | 'clock' | 'config' | 'qpay' | 'reportError'>;

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

const storedQpayInvoice = (deps: Pick<Deps, 'db'>, invoiceId: string) =>
  deps.db
    .selectFrom('qpay_invoices')
    .select(['qpay_invoice_id', 'qr_text', 'qr_image', 'short_url', 'deeplinks'])
    .where('invoice_id', '=', invoiceId)
    .executeTakeFirst();

/** The stored QPay invoice of ours, given another asker up to a second to store it. */
async function storedSoon(deps: Pick<Deps, 'db'>, invoiceId: string) {
  for (let tries = 0; ; tries += 1) {
    const stored = await storedQpayInvoice(deps, invoiceId);
    if (stored || tries === 5) return stored;
    await sleep(200);
  }
}

/**
 * The QPay invoice of one of our open invoices: opened at QPay on first ask (`qpaySenderInvoiceNo`
 * as its number, the callback URL naming our invoice id), the same one afterwards, so a reloaded
 * page shows the QR it showed. Two askers at once: the first stored wins; the other's QPay invoice
 * is cancelled, or was refused by QPay as a second one of that number. A provider failure is a
 * GatewayError for the caller to answer.
 */
export async function openQpayPayment(deps: QpayDeps, invoiceId: string): Promise<QpayCheckout> {
  // The invoice, its QPay invoice if one was stored, and its payer (for the log), in one read.
  const invoice = await deps.db
    .selectFrom('payment_invoices as i')
    .innerJoin('packages as p', 'p.id', 'i.package_id')
    .innerJoin('users as u', 'u.id', 'i.user_id')
    .leftJoin('qpay_invoices as q', 'q.invoice_id', 'i.invoice_id')
    .select(['i.invoice_id', 'i.amount', 'i.currency', 'i.status', 'i.user_id', 'p.name_en', 'p.name_mn'])
    .select(['u.first_name', 'u.last_name', 'u.username'])
    .select(['q.qpay_invoice_id', 'q.qr_text', 'q.qr_image', 'q.short_url', 'q.deeplinks'])
    .where('i.invoice_id', '=', invoiceId)
    .executeTakeFirst();
  if (!invoice) throw notFound('There is no such invoice.');
  const { qpay_invoice_id, qr_text, qr_image, short_url } = invoice;
  if (qpay_invoice_id !== null && qr_text !== null && qr_image !== null && short_url !== null) {
    return view(invoice, { qpay_invoice_id, qr_text, qr_image, short_url, deeplinks: invoice.deeplinks });
  }
  if (invoice.status !== 'created') throw conflict('This invoice is closed.', API_ERROR_CODES.invoiceClosed);

  const party = {
    userId: invoice.user_id,
    subscriberName: subscriberName(invoice),
    packageName: invoice.name_en,
    purchasePrice: invoice.amount,
  };
  let exchange: Exchange<QpayInvoice>;
  try {
    exchange = await deps.qpay.createInvoice({
      senderInvoiceNo: qpaySenderInvoiceNo(invoiceId),
      description: `Tunes ${invoice.name_mn} / ${invoice.name_en}`.slice(0, 255),
      amount: invoice.amount,
      callbackUrl: qpayCallbackUrl(deps.config.PUBLIC_URL, invoiceId),
    });
  } catch (error) {
    // QPay refused ours, maybe as a second invoice of its number: another asker's, being stored.
    const answered = error instanceof GatewayError && error.response !== null;
    const winner = answered ? await storedSoon(deps, invoiceId) : undefined;
    if (winner) return view(invoice, winner);
    throw error;
  }
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
  if (stored) {
    const { invoiceId: id, qrText, qrImage, shortUrl, deeplinks } = qpayInvoice;
    return view(invoice, {
      qpay_invoice_id: id,
      qr_text: qrText,
      qr_image: qrImage,
      short_url: shortUrl,
      deeplinks,
    });
  }
  await deps.qpay.cancelInvoice(qpayInvoice.invoiceId).catch((error: unknown) => {
    deps.reportError(error, `cancelling the spare QPay invoice of ${invoiceId} failed`);
  });
  const winner = await storedQpayInvoice(deps, invoiceId);
  if (!winner) throw new Error(`the QPay invoice of ${invoiceId} was not stored`);
  return view(invoice, winner);
}

/** The QPay invoice id opened for one of ours, if any. */
export async function qpayInvoiceOf(deps: Pick<Deps, 'db'>, invoiceId: string) {
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
  /** What PARTIAL payments took: never a capture, the invoice stays open. */
  partlyPaid: number;
}

/**
 * `payment/check` of a QPay invoice, read as a card gateway's answer: paid when a payment is
 * PAID (the amount paid), declined when every try FAILED, pending otherwise. PARTIAL, NEW, REFUND
 * and unknown rows pay nothing. While it is pending with payments, what PARTIAL ones took is kept
 * on the QPay invoice's row for the shopper's page (invoice-view.ts `paymentStatus`).
 */
export async function checkQpayPayment(
  deps: Pick<Deps, 'qpay' | 'db'>,
  qpayInvoiceId: string,
): Promise<Exchange<QpayCheck>> {
  const exchange = await deps.qpay.checkPayment(qpayInvoiceId);
  const { rows, paidAmount } = exchange.result;
  const partlyPaid = rows.filter((row) => row.status === 'PARTIAL').reduce((sum, row) => sum + row.amount, 0);
  const paid = rows.filter((row) => row.status === 'PAID');
  const captures = paid.map((row) => ({
    reference: row.paymentId,
    amount: row.amount,
    currency: row.currency,
  }));
  let result: QpayCheck;
  if (paid.length > 0) {
    const currency = paid[0]?.currency ?? 'MNT';
    result = { status: 'paid', amount: paidAmount, currency, captures, partlyPaid };
  } else if (rows.length > 0 && rows.every((row) => row.status === 'FAILED')) {
    result = { status: 'declined', amount: 0, currency: rows[0]?.currency ?? 'MNT', captures, partlyPaid };
  } else {
    result = { status: 'pending', amount: 0, currency: 'MNT', captures, partlyPaid };
    // A check that finds no payment at all (the page polling an unpaid invoice) writes nothing.
    if (rows.length > 0) {
      await deps.db
        .updateTable('qpay_invoices')
        .set({ partly_paid: partlyPaid })
        .where('qpay_invoice_id', '=', qpayInvoiceId)
        .where('partly_paid', '<>', partlyPaid)
        .execute();
    }
  }
  return { ...exchange, result };
}

/**
 * Cancels the QPay invoice before ours is closed (declined or expired), so no payment can arrive
 * afterwards. False when QPay refused: it may have been paid meanwhile, and the next check tells.
 */
export async function cancelQpayInvoice(
  deps: Pick<Deps, 'db' | 'clock' | 'qpay'>,
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
