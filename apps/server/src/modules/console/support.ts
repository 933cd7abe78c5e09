import type { InvoiceStatus } from '@tunes/shared/premium-rules';
import type { Deps } from '../../deps.js';
import { notFound } from '../../lib/errors.js';
import { sentMessagesForSupport } from './sent-messages.js';
import {
  type SupportDeps,
  subscriptionsOf,
  toSubscriptionView,
  toUserSummary,
  UUID,
  userColumns,
  userRow,
} from './support-views.js';
import './tables.js';

/** Listeners by exact id, e-mail (any case) or phone number (with or without 976). */
export async function searchUsers(deps: Pick<Deps, 'db'>, q: string) {
  const text = q.trim();
  const digits = text.replace(/[\s+()-]/g, '');
  let query = deps.db.selectFrom('users').select(userColumns).limit(20);
  if (UUID.test(text)) query = query.where('id', '=', text);
  else if (text.includes('@')) {
    const email = text.toLowerCase();
    query = query.where((eb) => eb.or([eb('primary_email', '=', email), eb('username', '=', email)]));
  } else if (/^\d{4,15}$/.test(digits)) {
    const numbers = digits.startsWith('976') ? [digits] : [digits, `976${digits}`];
    query = query.where('phone_number', 'in', numbers);
  } else return [];
  return (await query.execute()).map(toUserSummary);
}

const wasPaid = (status: InvoiceStatus) =>
  status === 'paid' || status === 'partly_refunded' || status === 'refunded';

/** Everything support sees of one listener (docs/console-api.md §4). */
export async function userDetail(deps: SupportDeps, id: string) {
  const user = await userRow(deps, id);
  if (!user) throw notFound('No such listener.');
  const now = deps.clock.now();
  const { db } = deps;
  const memberOf = db.selectFrom('subscription_members').select('subscription_id').where('user_id', '=', id);
  const subscriptions = await subscriptionsOf(deps)
    .where((eb) => eb.or([eb('s.owner_id', '=', id), eb('s.id', 'in', memberOf)]))
    .orderBy('s.end_date', 'desc')
    .limit(100)
    .execute();
  const shared = subscriptions.filter((row) => row.end_date > now);
  const family = [];
  for (const row of shared) {
    const members = await db
      .selectFrom('subscription_members as m')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .select(userColumns.map((column) => `u.${column}` as const))
      .where('m.subscription_id', '=', row.id)
      .execute();
    const owner = row.owner_id === id ? user : await userRow(deps, row.owner_id);
    if (!owner) continue;
    // The owner of a plan that shares owns it even before anyone joins (issue 37).
    if (members.length === 0 && !(row.owner_id === id && row.allow_share)) continue;
    family.push({
      subscriptionId: row.id,
      owner: toUserSummary(owner),
      members: members.map(toUserSummary),
      seats: row.max_shared_users,
    });
  }
  const payments = await db
    .selectFrom('payment_invoices as i')
    .innerJoin('packages as p', 'p.id', 'i.package_id')
    // What was given back of the captures that paid it (the ledger), and when last.
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom('payment_ledger as r')
          .innerJoin('payment_ledger as c', 'c.id', 'r.refund_of')
          .select((r) => [
            r.fn.sum<string>('r.amount').as('refunded'),
            r.fn.max('r.created_at').as('refunded_at'),
          ])
          .whereRef('c.invoice_id', '=', 'i.invoice_id')
          .where('c.outcome', '=', 'applied')
          .where('r.entry', '=', 'refund')
          .as('r'),
      (join) => join.onTrue(),
    )
    .select([
      'i.invoice_id',
      'i.created_at',
      'i.settled_at',
      'i.amount',
      'i.currency',
      'i.method',
      'i.kind',
      'i.status',
      'p.name_en',
      'r.refunded',
      'r.refunded_at',
    ])
    .where('i.user_id', '=', id)
    .orderBy('i.created_at', 'desc')
    .limit(100)
    .execute();
  const messages = await sentMessagesForSupport(db, id);
  const sessions = await db
    .selectFrom('refresh_tokens')
    .select((eb) => eb.fn.count<string>('family_id').distinct().as('count'))
    .where('user_id', '=', id)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return {
    user: { ...toUserSummary(user), language: user.language },
    subscriptions: subscriptions.map((row) => toSubscriptionView(row, id, now)),
    family,
    payments: payments.map((row) => ({
      invoiceId: row.invoice_id,
      createdAt: row.created_at.toISOString(),
      paidAt: wasPaid(row.status) && row.settled_at ? row.settled_at.toISOString() : null,
      amount: row.amount,
      currency: row.currency,
      packageName: row.name_en,
      method: row.method,
      kind: row.kind,
      status: row.status,
      /** Given back so far (console refunds, partial or whole). */
      refunded: Number(row.refunded ?? 0),
      refundedAt: row.refunded_at ? new Date(row.refunded_at).toISOString() : null,
      receiptUrl: row.status === 'paid' ? `/receipts/${encodeURIComponent(row.invoice_id)}` : null,
    })),
    messages,
    activeSessions: Number(sessions?.count ?? 0),
  };
}
