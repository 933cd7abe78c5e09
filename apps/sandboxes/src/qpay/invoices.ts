import { randomBytes, randomUUID } from 'node:crypto';
import type { Deps } from '@tunes/server/deps';
import { ProviderRefusal } from '@tunes/server/lib/errors';
import { QPAY_ERROR_STATUS } from '@tunes/server/modules/providers/qpay-contract';
import type { ApprovalOutcome } from './faults.js';
import './tables.js';

const ACCESS_TTL_MS = 30 * 60_000;
const REFRESH_TTL_MS = 24 * 60 * 60_000;

/** A new access token (and refresh token) for a merchant, as QPay's auth answers them. */
export async function issueSandboxTokens(
  deps: Pick<Deps, 'db' | 'clock'>,
  clientId: string,
  refreshToken?: string,
) {
  const now = deps.clock.now().getTime();
  const access = randomBytes(24).toString('base64url');
  const refresh = refreshToken ?? randomBytes(24).toString('base64url');
  const accessEnds = new Date(now + ACCESS_TTL_MS);
  let refreshEnds = new Date(now + REFRESH_TTL_MS);
  if (refreshToken) {
    // A refresh keeps its refresh token and its end.
    const kept = await deps.db
      .selectFrom('sandbox_qpay_tokens')
      .select('expires_at')
      .where('token', '=', refreshToken)
      .executeTakeFirstOrThrow();
    refreshEnds = kept.expires_at;
  } else {
    await deps.db
      .insertInto('sandbox_qpay_tokens')
      .values({ token: refresh, kind: 'refresh', client_id: clientId, expires_at: refreshEnds })
      .execute();
  }
  await deps.db
    .insertInto('sandbox_qpay_tokens')
    .values({ token: access, kind: 'access', client_id: clientId, expires_at: accessEnds })
    .execute();
  return {
    token_type: 'bearer',
    access_token: access,
    refresh_token: refresh,
    // QPay writes both as the Unix time the token ends.
    expires_in: Math.floor(accessEnds.getTime() / 1000),
    refresh_expires_in: Math.floor(refreshEnds.getTime() / 1000),
    scope: 'profile email',
    'not-before-policy': '0',
    session_state: randomUUID(),
  };
}

/** The merchant of a live token of the given kind, or undefined. */
export async function tokenOwner(
  deps: Pick<Deps, 'db' | 'clock'>,
  token: string,
  kind: 'access' | 'refresh',
) {
  const row = await deps.db
    .selectFrom('sandbox_qpay_tokens')
    .select('client_id')
    .where('token', '=', token)
    .where('kind', '=', kind)
    .where('expires_at', '>', deps.clock.now())
    .executeTakeFirst();
  return row?.client_id;
}

export interface NewSandboxQpayInvoice {
  clientId: string;
  invoiceCode: string;
  senderInvoiceNo: string;
  receiverCode: string;
  description: string;
  amount: number;
  callbackUrl: string;
}

/**
 * A new invoice, or undefined when the merchant has one with this `sender_invoice_no` already:
 * the description calls it the merchant's unique number.
 */
export async function createSandboxQpayInvoice(
  deps: Pick<Deps, 'db' | 'clock'>,
  invoice: NewSandboxQpayInvoice,
) {
  const taken = await deps.db
    .selectFrom('sandbox_qpay_invoices')
    .select('id')
    .where('client_id', '=', invoice.clientId)
    .where('sender_invoice_no', '=', invoice.senderInvoiceNo)
    .executeTakeFirst();
  if (taken) return undefined;
  const id = randomUUID();
  await deps.db
    .insertInto('sandbox_qpay_invoices')
    .values({
      id,
      client_id: invoice.clientId,
      invoice_code: invoice.invoiceCode,
      sender_invoice_no: invoice.senderInvoiceNo,
      receiver_code: invoice.receiverCode,
      description: invoice.description,
      amount: invoice.amount,
      callback_url: invoice.callbackUrl,
      created_at: deps.clock.now(),
    })
    .execute();
  return id;
}

export function findSandboxQpayInvoice(deps: Pick<Deps, 'db'>, id: string) {
  return deps.db.selectFrom('sandbox_qpay_invoices').selectAll().where('id', '=', id).executeTakeFirst();
}

export function sandboxQpayPayments(deps: Pick<Deps, 'db'>, invoiceId: string) {
  return deps.db
    .selectFrom('sandbox_qpay_payments')
    .selectAll()
    .where('invoice_id', '=', invoiceId)
    .orderBy('created_at')
    .execute();
}

/**
 * A bank app's answer to an open invoice, recorded as a payment in the status ordered
 * (faults.ts): PAID pays the invoice, once (a second approval finds it paid); any other status
 * leaves it open (PARTIAL takes part of the amount, half unless told). Answers the invoice when
 * this call recorded a payment, so the caller can call the merchant back.
 */
export async function answerSandboxQpayInvoice(
  deps: Pick<Deps, 'db' | 'clock'>,
  id: string,
  bank: string,
  outcome: ApprovalOutcome,
) {
  return deps.db.transaction().execute(async (trx) => {
    const open =
      outcome.status === 'PAID'
        ? await trx
            .updateTable('sandbox_qpay_invoices')
            .set({ status: 'PAID' })
            .where('id', '=', id)
            .where('status', '=', 'OPEN')
            .returningAll()
            .executeTakeFirst()
        : await trx
            .selectFrom('sandbox_qpay_invoices')
            .selectAll()
            .where('id', '=', id)
            .where('status', '=', 'OPEN')
            .forUpdate()
            .executeTakeFirst();
    if (!open) return undefined;
    const amount =
      outcome.status === 'PARTIAL' ? (outcome.amount ?? Math.floor(open.amount / 2)) : open.amount;
    await trx
      .insertInto('sandbox_qpay_payments')
      .values({
        payment_id: randomUUID(),
        invoice_id: id,
        bank,
        status: outcome.status,
        amount,
        created_at: deps.clock.now(),
      })
      .execute();
    return open;
  });
}

/** Cancels an open invoice: `cancelled`, or the status that kept it from being cancelled. */
export async function cancelSandboxQpayInvoice(deps: Pick<Deps, 'db'>, id: string) {
  const cancelled = await deps.db
    .updateTable('sandbox_qpay_invoices')
    .set({ status: 'CANCELLED' })
    .where('id', '=', id)
    .where('status', '=', 'OPEN')
    .returning('id')
    .executeTakeFirst();
  if (cancelled) return 'cancelled' as const;
  return (await findSandboxQpayInvoice(deps, id))?.status;
}

/**
 * Gives back a merchant's payment whole, as QPay's `payment/refund` does: one statement turns it
 * from PAID (or PARTIAL) to REFUND, so refunds asked at once give it back once. A payment the
 * merchant does not have is 422 PAYMENT_NOTFOUND; one refunded before, 400
 * PAYMENT_ALREADY_CANCELED; one that took no money, 400 PAYMENT_NOT_PAID.
 */
export async function refundSandboxQpayPayment(deps: Pick<Deps, 'db'>, clientId: string, paymentId: string) {
  const refunded = await deps.db
    .updateTable('sandbox_qpay_payments as p')
    .from('sandbox_qpay_invoices as i')
    .set({ status: 'REFUND' })
    .whereRef('i.id', '=', 'p.invoice_id')
    .where('i.client_id', '=', clientId)
    .where('p.payment_id', '=', paymentId)
    .where('p.status', 'in', ['PAID', 'PARTIAL'])
    .returning('p.payment_id')
    .executeTakeFirst();
  if (refunded) return;
  const payment = await deps.db
    .selectFrom('sandbox_qpay_payments as p')
    .innerJoin('sandbox_qpay_invoices as i', 'i.id', 'p.invoice_id')
    .select('p.status')
    .where('i.client_id', '=', clientId)
    .where('p.payment_id', '=', paymentId)
    .executeTakeFirst();
  if (!payment)
    throw new ProviderRefusal(QPAY_ERROR_STATUS.NOT_FOUND_ERROR, 'PAYMENT_NOTFOUND', 'No such payment.');
  // QPay's refund cancels a paid payment: its documented key for one cancelled before.
  if (payment.status === 'REFUND' || payment.status === 'REFUNDED') {
    throw new ProviderRefusal(400, 'PAYMENT_ALREADY_CANCELED', 'This payment was already refunded.');
  }
  throw new ProviderRefusal(400, 'PAYMENT_NOT_PAID', 'Only a paid payment can be refunded.');
}
