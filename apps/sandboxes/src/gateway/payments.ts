import { randomBytes } from 'node:crypto';
import type { Deps } from '@tunes/server/deps';
import { notFound, ProviderRefusal } from '@tunes/server/lib/errors';
import type { SandboxPaymentStatus } from './tables.js';
import './tables.js';

export interface NewSandboxPayment {
  client_id: string;
  invoice_id: string;
  amount: number;
  currency: string;
  description: string;
  languageCode: string;
  redirect_url: string;
  callback_url?: string;
  save_card?: boolean;
}

/** A payment session for one invoice of one merchant; a second one for the same invoice is a 409. */
export async function openSandboxPayment(
  deps: Pick<Deps, 'db' | 'clock'>,
  payment: NewSandboxPayment,
): Promise<string> {
  const token = randomBytes(24).toString('base64url');
  const inserted = await deps.db
    .insertInto('sandbox_gateway_payments')
    .values({
      token,
      client_id: payment.client_id,
      invoice_id: payment.invoice_id,
      amount: payment.amount,
      currency: payment.currency,
      description: payment.description,
      language_code: payment.languageCode,
      redirect_url: payment.redirect_url,
      callback_url: payment.callback_url ?? null,
      save_card: payment.save_card ?? false,
      created_at: deps.clock.now(),
    })
    .onConflict((oc) => oc.columns(['client_id', 'invoice_id']).doNothing())
    .returning('token')
    .executeTakeFirst();
  if (!inserted)
    throw new ProviderRefusal(409, 'duplicate_invoice', 'This invoice already has a payment session.');
  return token;
}

/** What `rest/check-payment` answers for a merchant's invoice. */
export async function sandboxPaymentState(deps: Pick<Deps, 'db'>, clientId: string, invoiceId: string) {
  const payment = await deps.db
    .selectFrom('sandbox_gateway_payments')
    .select(['invoice_id', 'status', 'amount', 'currency', 'card_token'])
    .where('client_id', '=', clientId)
    .where('invoice_id', '=', invoiceId)
    .executeTakeFirst();
  if (!payment) throw notFound('No payment session for this invoice.');
  return payment;
}

/** A payment session as stored. */
export type SandboxPayment = NonNullable<Awaited<ReturnType<typeof findSandboxPayment>>>;

export function findSandboxPayment(deps: Pick<Deps, 'db'>, token: string) {
  return deps.db
    .selectFrom('sandbox_gateway_payments')
    .selectAll()
    .where('token', '=', token)
    .executeTakeFirst();
}

/** Closes a pending payment once; answers the closed row, or undefined when it was already closed. */
export function closeSandboxPayment(
  deps: Pick<Deps, 'db' | 'clock'>,
  token: string,
  status: Exclude<SandboxPaymentStatus, 'pending'>,
  cardLast4: string | null,
  cardToken: string | null = null,
) {
  return deps.db
    .updateTable('sandbox_gateway_payments')
    .set({ status, card_last4: cardLast4, card_token: cardToken, settled_at: deps.clock.now() })
    .where('token', '=', token)
    .where('status', '=', 'pending')
    .returningAll()
    .executeTakeFirst();
}

/**
 * `rest/void`: closes an invoice's unpaid payment session, so its page can no longer be paid.
 * A paid session is refused (`already_paid`: refund it instead), a declined or cancelled one
 * answered as closed (`already_closed`), an unknown one `not_found`.
 */
export async function voidSandboxPayment(
  deps: Pick<Deps, 'db' | 'clock'>,
  clientId: string,
  invoiceId: string,
) {
  const voided = await deps.db
    .updateTable('sandbox_gateway_payments')
    .set({ status: 'cancelled', settled_at: deps.clock.now() })
    .where('client_id', '=', clientId)
    .where('invoice_id', '=', invoiceId)
    .where('status', '=', 'pending')
    .returning('invoice_id')
    .executeTakeFirst();
  if (voided) return { invoice_id: invoiceId, status: 'cancelled' as const };
  const payment = await sandboxPaymentState(deps, clientId, invoiceId);
  if (payment.status === 'paid')
    throw new ProviderRefusal(409, 'already_paid', 'This payment was made; refund it instead.');
  throw new ProviderRefusal(409, 'already_closed', `This payment is already ${payment.status}.`);
}
