import { createHmac, timingSafeEqual } from 'node:crypto';

/** The provider's server callback: which invoice reached which state. */
export interface PaymentCallback {
  invoice_id: string;
  status: string;
  amount: number;
  currency: string;
  /** Unix seconds when the provider sent it. */
  timestamp: number;
}

/** How long a signed callback stays acceptable, against replay. */
export const CALLBACK_MAX_AGE_SECONDS = 300;
export const SIGNATURE_HEADER = 'x-payment-signature';

function canonical(callback: PaymentCallback): string {
  return [callback.timestamp, callback.invoice_id, callback.status, callback.amount, callback.currency].join(
    '.',
  );
}

/** Hex HMAC-SHA256 of the callback's fields with PAYMENT_CALLBACK_SECRET. */
export function signCallback(secret: string, callback: PaymentCallback): string {
  return createHmac('sha256', secret).update(canonical(callback)).digest('hex');
}

export function isValidCallbackSignature(
  secret: string,
  callback: PaymentCallback,
  signature: string | undefined,
  now: Date,
): boolean {
  if (!signature || !/^[0-9a-f]{64}$/.test(signature)) return false;
  const expected = Buffer.from(signCallback(secret, callback), 'hex');
  if (!timingSafeEqual(expected, Buffer.from(signature, 'hex'))) return false;
  return Math.abs(now.getTime() / 1000 - callback.timestamp) <= CALLBACK_MAX_AGE_SECONDS;
}
