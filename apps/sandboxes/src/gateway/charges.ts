import { randomBytes } from 'node:crypto';
import type { Deps } from '@tunes/server/deps';
import { notFound } from '@tunes/server/lib/errors';
import { sql } from 'kysely';
import { cardBrand, chargeOutcome } from './cards.js';
import './tables.js';

/** Keeps the card a shopper just paid with, for the merchant's later charges; answers its token. */
export async function saveSandboxCard(
  deps: Pick<Deps, 'db' | 'clock'>,
  clientId: string,
  card: { number: string; expires: string },
): Promise<string> {
  const token = `card_${randomBytes(18).toString('base64url')}`;
  await deps.db
    .insertInto('sandbox_gateway_cards')
    .values({
      token,
      client_id: clientId,
      card_number: card.number,
      expires: card.expires,
      created_at: deps.clock.now(),
    })
    .execute();
  return token;
}

/** What the merchant may know of a saved card. */
export async function describeSandboxCard(deps: Pick<Deps, 'db'>, clientId: string, token: string) {
  const card = await deps.db
    .selectFrom('sandbox_gateway_cards')
    .select(['token', 'card_number', 'expires'])
    .where('token', '=', token)
    .where('client_id', '=', clientId)
    .executeTakeFirst();
  if (!card) return null;
  return {
    token: card.token,
    brand: cardBrand(card.card_number),
    last4: card.card_number.slice(-4),
    expires: card.expires,
  };
}

export interface ChargeRequest {
  clientId: string;
  cardToken: string;
  invoiceId: string;
  attempt: number;
  amount: number;
  currency: string;
}

/**
 * Charges a saved card for an invoice, as a real gateway does with an idempotency key: the same
 * (invoice, attempt) answers the first result again, and an invoice already paid is never
 * charged again, whatever attempt number comes (a unique index holds one `paid` per invoice).
 */
export async function chargeSandboxCard(deps: Pick<Deps, 'db' | 'clock'>, charge: ChargeRequest) {
  const { db } = deps;
  // The card, the charge this one repeats (or the one that paid), and a payment on the page, in
  // one read: the renewal run charges 100,000 cards through here.
  const { rows } = await sql<{
    card_number: string | null;
    status: 'paid' | 'declined' | null;
    amount: number | null;
    currency: string | null;
    attempt: number | null;
    page_amount: number | null;
    page_currency: string | null;
  }>`
    select c.card_number, e.status, e.amount, e.currency, e.attempt,
           p.amount as page_amount, p.currency as page_currency
    from (select 1) as one
    left join sandbox_gateway_cards c on c.token = ${charge.cardToken} and c.client_id = ${charge.clientId}
    left join lateral (
      select status, amount, currency, attempt from sandbox_gateway_charges
      where client_id = ${charge.clientId} and invoice_id = ${charge.invoiceId}
        and (status = 'paid' or attempt = ${charge.attempt})
      order by status desc -- 'paid' before 'declined'
      limit 1
    ) e on true
    left join lateral (
      select amount, currency from sandbox_gateway_payments
      where client_id = ${charge.clientId} and invoice_id = ${charge.invoiceId} and status = 'paid'
      limit 1
    ) p on true`.execute(db);
  const found = rows[0];
  if (!found?.card_number) throw notFound('There is no saved card with this token.');

  const answer = (
    row: { status: 'paid' | 'declined'; amount: number; currency: string; attempt: number },
    reference = `charge:${row.attempt}`,
  ) => ({
    invoice_id: charge.invoiceId,
    attempt: row.attempt,
    status: row.status,
    amount: row.amount,
    currency: row.currency,
    // Which capture took the money: this charge, an earlier one, or the payment page.
    reference,
  });
  const earlier = () =>
    db
      .selectFrom('sandbox_gateway_charges')
      .select(['status', 'amount', 'currency', 'attempt'])
      .where('client_id', '=', charge.clientId)
      .where('invoice_id', '=', charge.invoiceId)
      .where((eb) => eb.or([eb('status', '=', 'paid'), eb('attempt', '=', charge.attempt)]))
      .orderBy('status', 'desc') // 'paid' before 'declined'
      .executeTakeFirst();

  const { status, amount, currency, attempt } = found;
  if (status !== null && amount !== null && currency !== null && attempt !== null) {
    return answer({ status, amount, currency, attempt });
  }
  // Paid on the payment page already (a "pay now" link): the invoice is not charged again.
  if (found.page_amount !== null && found.page_currency !== null) {
    const paidOnPage = { amount: found.page_amount, currency: found.page_currency };
    return answer({ ...paidOnPage, status: 'paid', attempt: charge.attempt }, 'session');
  }
  const inserted = await db
    .insertInto('sandbox_gateway_charges')
    .values({
      client_id: charge.clientId,
      invoice_id: charge.invoiceId,
      attempt: charge.attempt,
      card_token: charge.cardToken,
      amount: charge.amount,
      currency: charge.currency,
      status: chargeOutcome(found.card_number),
      created_at: deps.clock.now(),
    })
    .onConflict((oc) => oc.doNothing())
    .returning(['status', 'amount', 'currency', 'attempt'])
    .executeTakeFirst();
  // Paid: the one paid charge of the invoice (a unique index). Otherwise the stored charge is the
  // answer, whoever inserted it (a concurrent twin may have won, or paid on another attempt).
  if (inserted?.status === 'paid') return answer(inserted);
  const stored = await earlier();
  if (!stored) throw new Error('sandbox charge vanished');
  return answer(stored);
}
