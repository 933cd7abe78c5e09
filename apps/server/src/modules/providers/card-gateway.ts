import {
  PAYMENT_CURRENCY,
  PAYMENT_LANGUAGE_CODE,
  PAYMENT_REDIRECT_OS,
  PAYMENT_TYPE,
} from '@tunes/shared/constants';
import type { z } from 'zod';
import { type Exchange, GatewayError } from './exchange.js';
import {
  gatewayCardSessionAnswerSchema as cardSessionAnswer,
  gatewayCardSessionCheckAnswerSchema as cardSessionCheckAnswer,
  gatewayChargeAnswerSchema as chargeAnswer,
  gatewayCheckAnswerSchema as checkAnswer,
  gatewayRefundAnswerSchema as refundAnswer,
  gatewayTokenAnswerSchema as tokenAnswer,
  gatewayTransactionsAnswerSchema as transactionsAnswer,
  gatewayVoidAnswerSchema as voidAnswer,
} from './gateway-contract.js';
import type { JsonPost } from './transport.js';

/** The payment token request of product.md §3, without the credentials the adapter adds. */
export interface TokenRequest {
  amount: number;
  description: string;
  invoice_id: string;
  redirect_url: string;
  callback_url: string;
  phone?: string;
  email?: string;
  /** Ask the provider to keep the card for renewals; the paid check then carries its token. */
  save_card?: boolean;
}

/** The provider's description of a card it keeps for us: a token and what may be shown. */
export interface ProviderCard {
  token: string;
  brand: string;
  last4: string;
  expires: string;
}

export type ProviderStatus = 'pending' | 'paid' | 'declined' | 'cancelled';

export interface PaymentCheck {
  invoice_id: string;
  status: ProviderStatus;
  amount: number;
  currency: string;
  card?: ProviderCard | null | undefined;
}

/** A charge of a saved card; the provider answers the same for the same invoice and attempt. */
export interface CardCharge {
  cardToken: string;
  invoiceId: string;
  attempt: number;
  amount: number;
  currency: string;
}

export interface ChargeResult {
  invoice_id: string;
  attempt: number;
  status: 'paid' | 'declined';
  amount: number;
  currency: string;
  /**
   * The capture that holds the money of a paid answer: this charge (`charge:<attempt>`), an
   * earlier one, or the payment page (`session`); the provider takes one payment per invoice.
   */
  reference?: string | undefined;
}

/**
 * A refund of what one capture of an invoice took: the card page's payment (`session`, the
 * default) or a saved-card charge (`charge:<attempt>`). Several refunds of one capture may be
 * made (partial ones) up to what it took; `refundId` is ours, so the same refund asked twice is
 * made once.
 */
export interface RefundRequest {
  invoiceId: string;
  amount: number;
  currency: string;
  refundId: string;
  reference?: string;
}

export interface RefundResult {
  invoice_id: string;
  status: 'refunded';
  amount: number;
  currency: string;
}

/**
 * `rest/transactions`: everything the provider did for one invoice, for the books check
 * (billing/books-check.ts). A capture is the page's payment when `paid` (reference `session`)
 * or a `paid` charge (`charge:<attempt>`); each refund names the capture it gave back.
 */
export interface GatewayTransactions {
  invoice_id: string;
  payment: {
    status: ProviderStatus;
    amount: number;
    currency: string;
    created_at: string;
    settled_at: string | null;
  } | null;
  charges: {
    attempt: number;
    status: 'paid' | 'declined';
    amount: number;
    currency: string;
    created_at: string;
  }[];
  refunds: { refund_id: string; reference: string; amount: number; currency: string; created_at: string }[];
}

/** A save-card session without a charge (`rest/card-session`): the card on file replaced. */
export interface CardSessionRequest {
  reference: string;
  redirect_url: string;
  languageCode: 'mn' | 'en';
  phone?: string;
  email?: string;
}

export interface CardSessionCheck {
  reference: string;
  status: 'pending' | 'saved' | 'declined' | 'cancelled';
  card: ProviderCard | null;
}

export interface PaymentGateway {
  requestToken(input: TokenRequest): Promise<Exchange<{ token: string }>>;
  checkPayment(invoiceId: string): Promise<Exchange<PaymentCheck>>;
  /** Charges a saved card (renewals, upgrades) without the shopper. */
  chargeCard(charge: CardCharge): Promise<Exchange<ChargeResult>>;
  /** Gives back all or part of what one capture took (console refunds, surplus captures). */
  refund(refund: RefundRequest): Promise<Exchange<RefundResult>>;
  /**
   * Closes an invoice's unpaid card page, so nobody can pay it afterwards. A page already paid
   * is a GatewayError whose response's `error` is `already_paid`; one never opened, `not_found`.
   */
  voidPayment(invoiceId: string): Promise<Exchange<{ invoice_id: string; status: 'cancelled' }>>;
  /** What the provider did for an invoice (read-only): its page's payment, charges and refunds. */
  transactions(invoiceId: string): Promise<Exchange<GatewayTransactions>>;
  /** The page the shopper is sent to (product.md §2: the token and os=PC). */
  paymentPageUrl(token: string): string;
  /** Opens the gateway's save-card page for a card on file, without a charge. */
  openCardSession(input: CardSessionRequest): Promise<Exchange<{ token: string }>>;
  /** The state of a save-card session, with the kept card once it is saved. */
  checkCardSession(reference: string): Promise<Exchange<CardSessionCheck>>;
  /** The save-card page the shopper is sent to. */
  cardPageUrl(token: string): string;
}

export interface GatewayOptions {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  post: JsonPost;
}

/** A provider answer for the payment log: a saved card's token keeps only its last 4 characters. */
function withoutCardToken(body: unknown): unknown {
  if (!body || typeof body !== 'object' || !('card' in body)) return body;
  const { card } = body as { card: unknown };
  if (!card || typeof card !== 'object' || !('token' in card) || typeof card.token !== 'string') return body;
  return { ...body, card: { ...card, token: `…${card.token.slice(-4)}` } };
}

/**
 * The provider protocol of product.md §7 (`POST {provider}/rest/token`, the gateway page, a
 * check-payment call) spoken to `PAYMENT_PROVIDER_URL`, the built-in sandbox by default; its
 * answers are read with the schemas of gateway-contract.ts.
 */
export function httpPaymentGateway({
  baseUrl,
  clientId,
  clientSecret,
  post,
}: GatewayOptions): PaymentGateway {
  const credentials = { client_id: clientId, client_secret: clientSecret };
  const call = async <T>(path: string, fields: Record<string, unknown>, schema: z.ZodType<T>) => {
    // The card token is a credential for charging: the log keeps only its end.
    const { card_token, ...rest } = fields;
    const logged = {
      url: `${baseUrl}${path}`,
      client_id: clientId,
      ...rest,
      ...(typeof card_token === 'string' ? { card_token: `…${card_token.slice(-4)}` } : {}),
    };
    let answer: Awaited<ReturnType<JsonPost>>;
    try {
      answer = await post(`${baseUrl}${path}`, { ...credentials, ...fields });
    } catch (error) {
      throw new GatewayError(
        `The payment provider is unreachable: ${(error as Error).message}`,
        logged,
        null,
      );
    }
    if (answer.status < 200 || answer.status >= 300) {
      throw new GatewayError(`The payment provider answered ${answer.status}.`, logged, answer.body);
    }
    const parsed = schema.safeParse(answer.body);
    if (!parsed.success)
      throw new GatewayError('The payment provider gave an unreadable answer.', logged, answer.body);
    return { request: logged, response: withoutCardToken(answer.body), result: parsed.data };
  };

  return {
    requestToken: (input) =>
      call(
        '/rest/token',
        {
          deviceType: 'pc',
          device: PAYMENT_REDIRECT_OS,
          languageCode: PAYMENT_LANGUAGE_CODE,
          payment_type: PAYMENT_TYPE,
          currency: PAYMENT_CURRENCY,
          ...input,
        },
        tokenAnswer,
      ),
    checkPayment: (invoiceId) => call('/rest/check-payment', { invoice_id: invoiceId }, checkAnswer),
    chargeCard: (charge) =>
      call(
        '/rest/charge',
        {
          card_token: charge.cardToken,
          invoice_id: charge.invoiceId,
          attempt: charge.attempt,
          amount: charge.amount,
          currency: charge.currency,
        },
        chargeAnswer,
      ),
    refund: (refund) =>
      call(
        '/rest/refund',
        {
          invoice_id: refund.invoiceId,
          amount: refund.amount,
          currency: refund.currency,
          refund_id: refund.refundId,
          ...(refund.reference ? { reference: refund.reference } : {}),
        },
        refundAnswer,
      ),
    voidPayment: (invoiceId) => call('/rest/void', { invoice_id: invoiceId }, voidAnswer),
    transactions: (invoiceId) => call('/rest/transactions', { invoice_id: invoiceId }, transactionsAnswer),
    paymentPageUrl: (token) =>
      `${baseUrl}/payment?${new URLSearchParams({ token, os: PAYMENT_REDIRECT_OS }).toString()}`,
    openCardSession: (input) => call('/rest/card-session', { ...input }, cardSessionAnswer),
    checkCardSession: (reference) => call('/rest/card-session/check', { reference }, cardSessionCheckAnswer),
    cardPageUrl: (token) =>
      `${baseUrl}/card?${new URLSearchParams({ token, os: PAYMENT_REDIRECT_OS }).toString()}`,
  };
}
