import type { RefundAnswer, RefundRequest } from '@tunes/shared/console';
import { API_ERROR_CODES } from '@tunes/shared/error-codes';
import { AppError, notFound } from '../../lib/errors.js';
import { findInvoiceParty } from '../premium/invoice-party.js';
import { capturesOf } from '../premium/ledger.js';
import { GatewayError } from '../providers/exchange.js';
import { writePaymentLog } from '../providers/payment-log.js';
import {
  assertRefundable,
  type Capture,
  claimRefund,
  invoiceOf,
  planRefund,
  type RefundDeps,
  releaseClaim,
} from './refund-claim.js';
import { giveBack } from './refund-provider.js';
import { settleRefund } from './refund-settle.js';
import './tables.js';

/**
 * An operator's refund of all or part of a paid invoice (docs/console-api.md), exactly once: the
 * invoice's refund is claimed first (claimRefund), then its capture's provider is asked — the
 * card gateway for `amount`, QPay for the whole payment — and once it confirms, one transaction
 * writes the ledger's refund, the invoice's status (`partly_refunded` or `refunded`), the audit
 * entry and the voiding of the e-barimt. Only a full refund ends the period it paid for; a
 * partial one leaves access as it is.
 *
 * The e-barimt is voided on a partial refund too, and no receipt for what remains is issued in
 * its place (the answer's `receipt.reissued` is false): a receipt is one per invoice and kind,
 * for the invoice's whole amount, with a bill id made from them (ebarimt/receipt-once.ts), so a
 * net receipt needs that table keyed per issue first.
 */
export async function refundPayment(
  deps: RefundDeps,
  operatorId: string,
  invoiceId: string,
  request: RefundRequest,
): Promise<RefundAnswer> {
  const found = await invoiceOf(deps.db, invoiceId);
  if (!found) throw notFound('No such payment.');
  assertRefundable(found);
  const { claim, resumed } = await claimRefund(deps, operatorId, found, request.reason);

  // Read after the claim: every refund before it is in the ledger by now.
  const invoice = (await invoiceOf(deps.db, invoiceId)) ?? found;
  let capture: Capture;
  if (resumed && claim.capture_id) {
    const resumedCapture = (await capturesOf(deps.db, invoiceId)).find(
      (each) => each.id === claim.capture_id,
    );
    if (!resumedCapture) throw new Error(`refund ${claim.refund_id} names no capture`);
    capture = resumedCapture;
  } else {
    try {
      const plan = await planRefund(deps.db, invoice, request.amount);
      capture = plan.capture;
      claim.amount = plan.amount;
      claim.capture_id = plan.capture.id;
    } catch (error) {
      await releaseClaim(deps.db, claim.refund_id);
      throw error;
    }
    await deps.db
      .updateTable('payment_refunds')
      .set({
        capture_id: capture.id,
        amount: claim.amount,
        currency: capture.currency,
        reason: request.reason,
      })
      .where('refund_id', '=', claim.refund_id)
      .execute();
  }

  const party = await findInvoiceParty(deps, invoiceId);
  const log = (entry: { type: 'info' | 'error'; message: string; request?: unknown; response?: unknown }) =>
    writePaymentLog(deps, { ...party, orderNumber: invoiceId, currentProcess: 'refund', ...entry });
  try {
    const exchange = await giveBack(deps, invoice, capture, claim);
    await log({
      type: 'info',
      message: `operator refund ${claim.refund_id} of ${claim.amount} ${capture.currency} (${capture.method})`,
      request: exchange.request,
      response: exchange.response,
    });
  } catch (error) {
    const gateway = error instanceof GatewayError ? error : null;
    // A provider that answered refused: the claim is let go. One that did not answer may have
    // refunded: the claim stays, and the next ask after CLAIM_MS repeats this very refund.
    const refused = (gateway && gateway.response !== null) || error instanceof AppError;
    if (refused) await releaseClaim(deps.db, claim.refund_id);
    await log({
      type: 'error',
      message: `operator refund ${claim.refund_id} failed: ${(error as Error).message}`,
      request: gateway?.request,
      response: gateway?.response,
    });
    if (error instanceof AppError) throw error;
    if (!gateway) throw error;
    throw new AppError(
      502,
      API_ERROR_CODES.gatewayError,
      refused
        ? `The provider refused the refund: ${gateway.message}`
        : `The provider did not answer; ask again in a few minutes: ${gateway.message}`,
    );
  }
  return settleRefund(deps, { operatorId, invoice, capture, claim, reason: request.reason });
}
