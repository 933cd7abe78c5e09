import { API_ERROR_CODES } from '@tunes/shared/error-codes';
import type { InvoiceStatus } from '@tunes/shared/premium-rules';
import type { FastifyBaseLogger } from 'fastify';
import type { Deps } from '../../deps.js';
import { AppError, notFound } from '../../lib/errors.js';
import { isValidCallbackSignature, type PaymentCallback } from '../providers/callback-signature.js';
import { type SettlementDeps, settleInvoice } from './settlement.js';

/**
 * The provider's signed server callback. Anyone can post to it, so the signature is verified
 * before anything is read or stored: a refusal writes no row (a burst of forged callbacks must
 * not fill the payment log) and leaves one short line in the application log, never the body
 * or headers. A verified callback is only a hint: the invoice is confirmed with the provider.
 */
export async function receivePaymentCallback(
  deps: SettlementDeps & Pick<Deps, 'config'>,
  callback: PaymentCallback,
  signature: string | string[] | undefined,
  log: Pick<FastifyBaseLogger, 'warn'>,
): Promise<InvoiceStatus> {
  const signatureText = typeof signature === 'string' ? signature : undefined;
  if (
    !isValidCallbackSignature(deps.config.PAYMENT_CALLBACK_SECRET, callback, signatureText, deps.clock.now())
  ) {
    log.warn(
      { invoiceId: callback.invoice_id, signatureLength: signatureText?.length ?? 0 },
      'payment callback refused: invalid or expired signature',
    );
    throw new AppError(401, API_ERROR_CODES.invalidSignature, 'The callback signature is invalid.');
  }
  const status = await settleInvoice(deps, callback.invoice_id, 'callback');
  if (!status) throw notFound('There is no such invoice.');
  return status;
}
