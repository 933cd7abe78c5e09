import { API_ERROR_CODES } from '@tunes/shared/error-codes';
import { conflict } from '../../lib/errors.js';
import type { Exchange } from '../providers/exchange.js';
import type { Capture, Claim, Invoice, RefundDeps } from './refund-claim.js';
import './tables.js';

/** The capture's name at its provider; captures from before the ledger are `opening`. */
async function providerReference(deps: RefundDeps, invoice: Invoice, capture: Capture): Promise<string> {
  if (capture.reference !== 'opening') return capture.reference;
  if (capture.method === 'card') {
    return invoice.charge_attempts > 0 ? `charge:${invoice.charge_attempts}` : 'session';
  }
  const qpayInvoice = await deps.db
    .selectFrom('qpay_invoices')
    .select('qpay_invoice_id')
    .where('invoice_id', '=', invoice.invoice_id)
    .executeTakeFirst();
  const payments = qpayInvoice ? await deps.qpay.checkPayment(qpayInvoice.qpay_invoice_id) : undefined;
  const paid = payments?.result.rows.find((row) => row.status === 'PAID');
  if (!paid) throw conflict('QPay knows no paid payment of this invoice.', API_ERROR_CODES.notRefundable);
  return paid.paymentId;
}

/** Asks the capture's provider to give `amount` back; our refund id makes a second ask the first. */
export async function giveBack(
  deps: RefundDeps,
  invoice: Invoice,
  capture: Capture,
  claim: Claim,
): Promise<Exchange<unknown>> {
  const reference = await providerReference(deps, invoice, capture);
  if (capture.method === 'qpay') return deps.qpay.refundPayment(reference);
  return deps.paymentGateway.refund({
    invoiceId: invoice.invoice_id,
    amount: claim.amount,
    currency: capture.currency,
    refundId: claim.refund_id,
    reference,
  });
}
