/** Sandbox test cards of product.md §10. */
export const PAID_CARD = '4242424242424242';
export const DECLINED_CARD = '4000000000000002';
/** Pays at the card form, then every later charge of the saved card is declined. */
export const FAILS_LATER_CARD = '4000000000000341';

export type CardOutcome =
  | { ok: true; status: 'paid' | 'declined'; last4: string; number: string; expires: string }
  | { ok: false; error: string };

/** Whether a later charge of a saved card goes through (the card form already took the first). */
export const chargeOutcome = (cardNumber: string): 'paid' | 'declined' =>
  cardNumber === PAID_CARD ? 'paid' : 'declined';

/** All the sandbox's test cards are Visa numbers; the brand is read from the first digit. */
export const cardBrand = (cardNumber: string) =>
  cardNumber.startsWith('4') ? 'Visa' : cardNumber.startsWith('5') ? 'Mastercard' : 'Card';

const digitsOnly = (value: string) => value.replace(/[\s-]/g, '');

/** Reads the card form: a test card number, an expiry not in the past, a 3–4 digit CVC. */
export function judgeCard(
  form: { card_number?: string; expiry?: string; cvc?: string },
  now: Date,
): CardOutcome {
  const number = digitsOnly(form.card_number ?? '');
  if (!/^\d{12,19}$/.test(number)) return { ok: false, error: 'Enter the card number.' };
  const expiry = /^(0[1-9]|1[0-2])\s*\/?\s*(\d{2})$/.exec((form.expiry ?? '').trim());
  if (!expiry) return { ok: false, error: 'Enter the expiry date as MM/YY.' };
  const endOfMonth = Date.UTC(2000 + Number(expiry[2]), Number(expiry[1]), 1);
  if (endOfMonth <= now.getTime()) return { ok: false, error: 'The card has expired.' };
  if (!/^\d{3,4}$/.test((form.cvc ?? '').trim())) return { ok: false, error: 'Enter the 3 or 4 digit CVC.' };
  if (number === PAID_CARD || number === FAILS_LATER_CARD) {
    return {
      ok: true,
      status: 'paid',
      last4: number.slice(-4),
      number,
      expires: `${expiry[1]}/${expiry[2]}`,
    };
  }
  if (number === DECLINED_CARD) {
    return {
      ok: true,
      status: 'declined',
      last4: number.slice(-4),
      number,
      expires: `${expiry[1]}/${expiry[2]}`,
    };
  }
  return { ok: false, error: 'The sandbox accepts only its test cards.' };
}
