import type { ProviderStatus } from '../providers/card-gateway.js';
import { type Exchange, GatewayError } from '../providers/exchange.js';
import type { PaymentLogEntry } from '../providers/payment-log.js';
import type { Capture, CaptureDeps } from './capture-once.js';
import { checkQpayPayment } from './qpay-payments.js';
import './tables.js';

/** A line of a settlement's log; the invoice, its payer and the step are filled in by the caller. */
export type StepLine = Omit<PaymentLogEntry, 'orderNumber' | 'currentProcess'>;

/** What the providers an invoice was opened with say of it. */
export interface ProviderAnswers {
  /** Money taken, one entry a capture: the card page's payment, each PAID QPay payment. */
  captures: Capture[];
  /** Every provider asked says it is declined or cancelled (the status to close with). */
  closed: 'declined' | 'cancelled' | null;
  /** One provider could not be asked: nothing is closed on a partial answer. */
  unanswered: boolean;
  /** The log lines of the asking, for the caller to write (with what it does next, if it can). */
  lines: StepLine[];
}

/**
 * Asks each provider the invoice was opened with: the card gateway (a card session, or no QPay
 * invoice) and QPay (a QPay invoice; a renewal may have both).
 */
export async function askProviders(
  deps: CaptureDeps,
  invoiceId: string,
  invoice: { provider_token: string | null; qpay_invoice_id: string | null },
): Promise<ProviderAnswers> {
  const answers: ProviderAnswers = { captures: [], closed: null, unanswered: false, lines: [] };
  const log = (line: StepLine) => answers.lines.push(line);
  const statuses: ProviderStatus[] = [];
  const ask = async <T extends { status: ProviderStatus }>(
    name: string,
    check: () => Promise<Exchange<T>>,
  ) => {
    try {
      const exchange = await check();
      const { request, response } = exchange;
      log({ type: 'info', message: `${name} status: ${exchange.result.status}`, request, response });
      statuses.push(exchange.result.status);
      return exchange.result;
    } catch (error) {
      if (!(error instanceof GatewayError)) throw error;
      log({ type: 'error', message: error.message, request: error.request, response: error.response });
      answers.unanswered = true;
      return null;
    }
  };
  const qpayInvoiceId = invoice.qpay_invoice_id;
  if (!qpayInvoiceId || invoice.provider_token) {
    const card = await ask('provider', () => deps.paymentGateway.checkPayment(invoiceId));
    if (card?.status === 'paid') {
      const { amount, currency } = card;
      answers.captures.push({ method: 'card', reference: 'session', amount, currency, card: card.card });
    }
  }
  if (qpayInvoiceId) {
    const qpay = await ask('QPay', () => checkQpayPayment(deps, qpayInvoiceId));
    for (const payment of qpay?.captures ?? []) answers.captures.push({ method: 'qpay', ...payment });
  }
  const first = statuses[0];
  if (!answers.unanswered && (first === 'declined' || first === 'cancelled')) {
    if (statuses.every((status) => status === 'declined' || status === 'cancelled')) answers.closed = first;
  }
  return answers;
}
