import { randomUUID } from 'node:crypto';
import type { InvoiceStatus } from '@tunes/shared/premium-rules';
import { sql } from 'kysely';
import type { Deps } from '../../deps.js';
import { conflict, notFound, tooManyRequests } from '../../lib/errors.js';
import { LIMITS } from '../../lib/limits.js';
import { revokeAllForUser } from '../accounts/tokens.js';
import { billingMessages } from '../billing/messages.js';
import { recordGrant } from '../premium/ledger.js';
import { notifyOnce } from '../premium/notices.js';
import { cancelAutoRenew } from '../premium/subscriptions.js';
import { audit } from './audit.js';
import { refuseOverCap } from './extension-cap.js';
import { sentMessagesForSupport } from './sent-messages.js';
import type { OperatorRole } from './tables.js';
import './tables.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
type SupportDeps = Pick<Deps, 'db' | 'clock'>;

const userColumns = [
  'id',
  'phone_number',
  'primary_email',
  'first_name',
  'last_name',
  'created_at',
  'deleted_at',
  'language',
] as const;

type UserRow = {
  id: string;
  phone_number: string | null;
  primary_email: string | null;
  first_name: string;
  last_name: string;
  created_at: Date;
  deleted_at: Date | null;
};

function toUserSummary(row: UserRow) {
  return {
    id: row.id,
    msisdn: row.phone_number,
    email: row.primary_email,
    firstName: row.first_name || null,
    lastName: row.last_name || null,
    createdAt: row.created_at.toISOString(),
    deleted: row.deleted_at !== null,
  };
}

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

async function userRow(deps: Pick<Deps, 'db'>, id: string) {
  if (!UUID.test(id)) return undefined;
  return deps.db.selectFrom('users').select(userColumns).where('id', '=', id).executeTakeFirst();
}

function subscriptionsOf(deps: Pick<Deps, 'db'>) {
  return deps.db
    .selectFrom('subscriptions as s')
    .innerJoin('packages as p', 'p.id', 's.package_id')
    .select([
      's.id',
      's.owner_id',
      's.start_date',
      's.end_date',
      's.is_auto_renew',
      's.cancelled_at',
      's.grace_until',
      'p.merchant_code',
      'p.name_en',
      'p.allow_share',
      'p.max_shared_users',
    ]);
}
type SubscriptionRow = Awaited<ReturnType<ReturnType<typeof subscriptionsOf>['executeTakeFirstOrThrow']>>;

function toSubscriptionView(row: SubscriptionRow, userId: string, now: Date) {
  const live = row.end_date > now || (row.grace_until !== null && row.grace_until > now);
  return {
    id: row.id,
    packageCode: row.merchant_code,
    packageName: row.name_en,
    status: live ? ('active' as const) : row.cancelled_at ? ('cancelled' as const) : ('ended' as const),
    startDate: row.start_date.toISOString(),
    endDate: row.end_date.toISOString(),
    autoRenew: row.is_auto_renew,
    role: row.owner_id === userId ? ('owner' as const) : ('member' as const),
  };
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

async function ownedSubscriptionRow(deps: SupportDeps, userId: string, subscriptionId: string) {
  if (!UUID.test(subscriptionId)) throw notFound('No such subscription of this listener.');
  const row = await subscriptionsOf(deps)
    .where('s.id', '=', subscriptionId)
    .where('s.owner_id', '=', userId)
    // Callers read, then write from what they read: concurrent extends wait and add up.
    .modifyEnd(sql`for update of s`)
    .executeTakeFirst();
  if (!row) throw notFound('No such subscription of this listener.');
  return row;
}

/**
 * Moves the period's end (and its next billing step) `days` later, within the operator's caps
 * (extension-cap.ts): a refusal is answered 403 and written to the audit log.
 */
export async function extendSubscription(
  deps: SupportDeps,
  operator: { id: string; role: OperatorRole },
  userId: string,
  subscriptionId: string,
  days: number,
) {
  const now = deps.clock.now();
  const operatorId = operator.id;
  const done = await deps.db.transaction().execute(async (trx) => {
    const tx = { db: trx, clock: deps.clock };
    const before = await ownedSubscriptionRow(tx, userId, subscriptionId);
    const refusal = await refuseOverCap(trx, now, {
      operatorId,
      role: operator.role,
      userId,
      subscriptionId,
      days,
    });
    if (refusal) return { refusal };
    const shift = days * DAY_MS;
    const from = before.end_date > now ? before.end_date : now;
    const newEnd = new Date(from.getTime() + shift);
    await trx
      .updateTable('subscriptions')
      .set({ end_date: newEnd, grace_until: null, updated_at: now })
      .where('id', '=', subscriptionId)
      .execute();
    // A pending billing step (reminder, charge) moves as far as the end date did.
    const movedSeconds = Math.round((newEnd.getTime() - before.end_date.getTime()) / 1000);
    await trx
      .updateTable('subscriptions')
      .set({ next_billing_at: sql<Date>`next_billing_at + make_interval(secs => ${movedSeconds}::integer)` })
      .where('id', '=', subscriptionId)
      .where('next_billing_at', 'is not', null)
      .execute();
    await recordGrant(trx, {
      subscriptionId,
      method: 'extension',
      reference: `extension:${randomUUID()}`,
      reason: `${days} days by operator ${operatorId}`,
      now,
    });
    const after = await ownedSubscriptionRow(tx, userId, subscriptionId);
    const view = toSubscriptionView(after, userId, now);
    await audit(trx, now, {
      operatorId,
      action: 'user.extend',
      targetType: 'subscription',
      targetId: subscriptionId,
      before: toSubscriptionView(before, userId, now),
      after: { ...view, days, userId },
    });
    return { view };
  });
  if ('refusal' in done) throw done.refusal;
  return done.view;
}

/** Cancels: no renewal (the listener's own cancel, billing code), or the period ends now. */
export async function cancelSubscription(
  deps: SupportDeps,
  operatorId: string,
  userId: string,
  subscriptionId: string,
  immediately: boolean,
) {
  const now = deps.clock.now();
  return deps.db.transaction().execute(async (trx) => {
    const tx = { db: trx, clock: deps.clock };
    const before = await ownedSubscriptionRow(tx, userId, subscriptionId);
    await cancelAutoRenew(tx, userId, subscriptionId);
    if (immediately) await endPeriodNow(trx, subscriptionId, now);
    const view = toSubscriptionView(await ownedSubscriptionRow(tx, userId, subscriptionId), userId, now);
    await audit(trx, now, {
      operatorId,
      action: 'user.cancel',
      targetType: 'subscription',
      targetId: subscriptionId,
      before: toSubscriptionView(before, userId, now),
      after: { ...view, immediately, userId },
    });
    return view;
  });
}

/** Ends a subscription's period now: no access, no renewal, no retry. */
export async function endPeriodNow(trx: Deps['db'], subscriptionId: string, now: Date): Promise<void> {
  await trx
    .updateTable('subscriptions')
    .set({
      end_date: now,
      is_auto_renew: false,
      cancelled_at: now,
      next_billing_at: null,
      grace_until: null,
      updated_at: now,
    })
    .where('id', '=', subscriptionId)
    .where('end_date', '>', now)
    .execute();
}

/**
 * Sends the receipt link of a paid invoice again, by e-mail or SMS as billing messages go; each
 * operator at most 5 times an hour per invoice (lib/limits.ts), a refusal audited.
 */
export async function resendReceipt(
  deps: Pick<Deps, 'db' | 'clock' | 'config' | 'throttle'>,
  operatorId: string,
  userId: string,
  invoiceId: string,
) {
  const invoice = await deps.db
    .selectFrom('payment_invoices as i')
    .innerJoin('packages as p', 'p.id', 'i.package_id')
    .select(['i.status', 'i.amount', 'i.currency', 'p.name_en', 'p.name_mn'])
    .where('i.invoice_id', '=', invoiceId)
    .where('i.user_id', '=', userId)
    .executeTakeFirst();
  if (!invoice) throw notFound('No such payment of this listener.');
  if (invoice.status !== 'paid') throw conflict('Only a paid invoice has a receipt.', 'not_paid');
  const now = deps.clock.now();
  const limit = LIMITS.receiptResendsPerInvoice;
  const taken = await deps.throttle.take(`receipt-resends:${operatorId}:${invoiceId}`, limit);
  if (!taken.allowed) {
    await audit(deps.db, now, {
      operatorId,
      action: 'user.receipt.resend.refused',
      targetType: 'payment',
      targetId: invoiceId,
      after: { cap: limit.limit, windowSeconds: limit.windowSeconds, userId },
    });
    throw tooManyRequests(taken.retryAfterSeconds, limit.message);
  }
  const link = `${deps.config.PUBLIC_URL}/receipts/${encodeURIComponent(invoiceId)}`;
  const sentTo: string[] = [];
  await notifyOnce(
    deps,
    {
      key: `receipt-resend:${invoiceId}:${now.getTime()}:${Math.random().toString(36).slice(2)}`,
      userId,
      link,
      text: (lang) =>
        billingMessages.receipt(lang, lang === 'mn' ? invoice.name_mn : invoice.name_en, invoice, link),
    },
    undefined,
    async (trx, to) => {
      sentTo.push(to);
      await audit(trx, now, {
        operatorId,
        action: 'user.receipt.resend',
        targetType: 'payment',
        targetId: invoiceId,
        after: { to, userId },
      });
    },
  );
  if (sentTo.length === 0)
    throw conflict('The listener has no phone number or e-mail address.', 'no_address');
  return { sentTo };
}

/** Signs the listener out everywhere: every refresh token family is revoked, its access tokens refused. */
export async function endUserSessions(
  deps: SupportDeps & Pick<Deps, 'accessTokens' | 'revokedSessions'>,
  operatorId: string,
  userId: string,
) {
  if (!(await userRow(deps, userId))) throw notFound('No such listener.');
  const now = deps.clock.now();
  return deps.db.transaction().execute(async (trx) => {
    const live = await trx
      .selectFrom('refresh_tokens')
      .select((eb) => eb.fn.count<string>('family_id').distinct().as('count'))
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    await revokeAllForUser({ ...deps, db: trx }, userId);
    const ended = Number(live?.count ?? 0);
    await audit(trx, now, {
      operatorId,
      action: 'user.sessions.end',
      targetType: 'user',
      targetId: userId,
      after: { ended },
    });
    return { ended };
  });
}
