import type { PayInvoiceResponse, PaymentMethod } from '@tunes/shared/billing';
import { API_ERROR_CODES } from '@tunes/shared/error-codes';
import { PAYMENT_GATEWAY_ERROR_CODE } from '@tunes/shared/premium-rules';
import type { Deps } from '../../deps.js';
import { AppError, conflict } from '../../lib/errors.js';
import { ownInvoice } from '../premium/invoice-view.js';
import { openQpayPayment } from '../premium/qpay-payments.js';
import { GatewayError } from '../providers/exchange.js';
import { invoicePaymentPage } from './invoice-payment-page.js';

/**
 * `POST /api/payments/{invoiceId}/pay`: one of the listener's open invoices paid by the method
 * they choose — the renewal link's page (product.md §12), or a QPay page reloaded (the same QR
 * again). Card: the gateway page; QPay: its QR and bank-app links. Either way the invoice is
 * settled by whichever provider is paid (settlement.ts asks both).
 */
export async function payInvoice(
  deps: Deps,
  userId: string,
  invoiceId: string,
  method: PaymentMethod,
): Promise<PayInvoiceResponse> {
  const invoice = await ownInvoice(deps, userId, invoiceId);
  if (invoice.status !== 'created') throw conflict('This invoice is closed.', API_ERROR_CODES.invoiceClosed);
  try {
    if (method === 'qpay') {
      if (!deps.config.qpayEnabled) {
        throw new AppError(
          503,
          API_ERROR_CODES.qpayUnavailable,
          'QPay is not available on this site at the moment.',
        );
      }
      return await openQpayPayment(deps, invoiceId);
    }
    return { method: 'card', url: await invoicePaymentPage(deps, invoiceId), invoiceId };
  } catch (error) {
    if (!(error instanceof GatewayError)) throw error;
    deps.reportError(error, `paying invoice ${invoiceId} could not start`);
    throw new AppError(
      502,
      PAYMENT_GATEWAY_ERROR_CODE,
      'The payment gateway could not start the payment. Please try again later.',
    );
  }
}
