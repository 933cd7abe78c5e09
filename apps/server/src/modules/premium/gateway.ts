import {
  PAYMENT_CURRENCY,
  PAYMENT_LANGUAGE_CODE,
  PAYMENT_REDIRECT_OS,
  PAYMENT_TYPE,
} from '@tunes/shared/constants';
import { z } from 'zod';
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
}

/** A refund of what was paid for an invoice; the provider refunds an invoice once. */
export interface RefundRequest {
  invoiceId: string;
  amount: number;
  currency: string;
}

export interface RefundResult {
  invoice_id: string;
  status: 'refunded';
  amount: number;
  currency: string;
}

/** What the adapter tried and what came back, for the payment log (secrets never included). */
export interface Exchange<T> {
  request: Record<string, unknown>;
  response: unknown;
  result: T;
}

export class GatewayError extends Error {
  override name = 'GatewayError';
  constructor(
    message: string,
    readonly request: Record<string, unknown>,
    readonly response: unknown,
  ) {
    super(message);
  }
}

export interface PaymentGateway {
  requestToken(input: TokenRequest): Promise<Exchange<{ token: string }>>;
  checkPayment(invoiceId: string): Promise<Exchange<PaymentCheck>>;
  /** Charges a saved card (renewals, upgrades) without the shopper. */
  chargeCard(charge: CardCharge): Promise<Exchange<ChargeResult>>;
  /** Gives back what was paid for an invoice (operator console refunds). */
  refund(refund: RefundRequest): Promise<Exchange<RefundResult>>;
  /** The page the shopper is sent to (product.md §2: the token and os=PC). */
  paymentPageUrl(token: string): string;
}

const tokenAnswer = z.object({ token: z.string().min(8).max(200) });
const checkAnswer = z.object({
  invoice_id: z.string(),
  status: z.enum(['pending', 'paid', 'declined', 'cancelled']),
  amount: z.number().int(),
  currency: z.string(),
  card: z
    .object({ token: z.string(), brand: z.string(), last4: z.string(), expires: z.string() })
    .nullable()
    .optional(),
});
const refundAnswer = z.object({
  invoice_id: z.string(),
  status: z.literal('refunded'),
  amount: z.number().int(),
  currency: z.string(),
});
const chargeAnswer = z.object({
  invoice_id: z.string(),
  attempt: z.number().int(),
  status: z.enum(['paid', 'declined']),
  amount: z.number().int(),
  currency: z.string(),
});

export interface GatewayOptions {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  post: JsonPost;
}

/**
 * The provider protocol of product.md §7 (`POST {provider}/rest/token`, the gateway page, a
 * check-payment call) spoken to `PAYMENT_PROVIDER_URL`: the built-in sandbox by default.
 */
/** A provider answer for the payment log: a saved card's token keeps only its last 4 characters. */
function withoutCardToken(body: unknown): unknown {
  if (!body || typeof body !== 'object' || !('card' in body)) return body;
  const { card } = body as { card: unknown };
  if (!card || typeof card !== 'object' || !('token' in card) || typeof card.token !== 'string') return body;
  return { ...body, card: { ...card, token: `…${card.token.slice(-4)}` } };
}

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
        { invoice_id: refund.invoiceId, amount: refund.amount, currency: refund.currency },
        refundAnswer,
      ),
    paymentPageUrl: (token) =>
      `${baseUrl}/payment?${new URLSearchParams({ token, os: PAYMENT_REDIRECT_OS }).toString()}`,
  };
}
