import { randomBytes, randomUUID } from 'node:crypto';
import type { Deps } from '../../deps.js';
import { AppError } from '../../lib/errors.js';
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

export async function createSandboxQpayInvoice(
  deps: Pick<Deps, 'db' | 'clock'>,
  invoice: NewSandboxQpayInvoice,
) {
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
 * A bank app's answer to an open invoice: a declined try is recorded and the invoice stays open;
 * an approved one pays it, once (a second approval finds it paid). Answers the paid invoice when
 * this call paid it.
 */
export async function answerSandboxQpayInvoice(
  deps: Pick<Deps, 'db' | 'clock'>,
  id: string,
  bank: string,
  approve: boolean,
) {
  return deps.db.transaction().execute(async (trx) => {
    const now = deps.clock.now();
    if (!approve) {
      const open = await trx
        .selectFrom('sandbox_qpay_invoices')
        .select(['amount'])
        .where('id', '=', id)
        .where('status', '=', 'OPEN')
        .executeTakeFirst();
      if (open) {
        await trx
          .insertInto('sandbox_qpay_payments')
          .values({
            payment_id: randomUUID(),
            invoice_id: id,
            bank,
            status: 'FAILED',
            amount: open.amount,
            created_at: now,
          })
          .execute();
      }
      return undefined;
    }
    const paid = await trx
      .updateTable('sandbox_qpay_invoices')
      .set({ status: 'PAID' })
      .where('id', '=', id)
      .where('status', '=', 'OPEN')
      .returningAll()
      .executeTakeFirst();
    if (!paid) return undefined;
    await trx
      .insertInto('sandbox_qpay_payments')
      .values({
        payment_id: randomUUID(),
        invoice_id: id,
        bank,
        status: 'PAID',
        amount: paid.amount,
        created_at: now,
      })
      .execute();
    return paid;
  });
}

/** Cancels an open invoice; answers its status afterwards (PAID cannot be cancelled). */
export async function cancelSandboxQpayInvoice(deps: Pick<Deps, 'db'>, id: string) {
  await deps.db
    .updateTable('sandbox_qpay_invoices')
    .set({ status: 'CANCELLED' })
    .where('id', '=', id)
    .where('status', '=', 'OPEN')
    .execute();
  return (await findSandboxQpayInvoice(deps, id))?.status;
}

/**
 * Gives back a merchant's paid payment whole, as QPay's `payment/refund` does: one statement
 * turns it from PAID to REFUNDED, so refunds asked at once give it back once. A payment the
 * merchant does not have is 404; one refunded before, 400 PAYMENT_ALREADY_CANCELED; one never
 * paid, 400 PAYMENT_NOT_PAID.
 */
export async function refundSandboxQpayPayment(deps: Pick<Deps, 'db'>, clientId: string, paymentId: string) {
  const refunded = await deps.db
    .updateTable('sandbox_qpay_payments as p')
    .from('sandbox_qpay_invoices as i')
    .set({ status: 'REFUNDED' })
    .whereRef('i.id', '=', 'p.invoice_id')
    .where('i.client_id', '=', clientId)
    .where('p.payment_id', '=', paymentId)
    .where('p.status', '=', 'PAID')
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
  if (!payment) throw new AppError(404, 'PAYMENT_NOTFOUND', 'No such payment.');
  // QPay's refund cancels a paid payment: its documented key for one cancelled before.
  if (payment.status === 'REFUNDED') {
    throw new AppError(400, 'PAYMENT_ALREADY_CANCELED', 'This payment was already refunded.');
  }
  throw new AppError(400, 'PAYMENT_NOT_PAID', 'Only a paid payment can be refunded.');
}
