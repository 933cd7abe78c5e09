import type { FastifyBaseLogger } from 'fastify';
import type { Deps } from '../../deps.js';
import { tellOwnerMemberLeft } from '../family/leave-plan.js';
import '../premium/tables.js';
import '../ebarimt/tables.js';
import { unauthorized } from '../../lib/errors.js';
import { messageDate } from '../../lib/message-date.js';
import { languageOf } from '../../lib/message-language.js';
import { sendToAccount } from '../notifications/send-to-account.js';
import { releaseOffersOf } from '../offers/redemption.js';
import { trialsForExport } from '../trials/crossings.js';
import { messagesSentToAccount } from './account-outbox.js';
import { accountMessages } from './messages.js';
import { listSessions } from './sessions.js';
import { revokeAllForUser } from './tokens.js';
import { getProfile, getUser } from './users.js';

type DataDeps = Pick<Deps, 'db' | 'clock' | 'config' | 'accessTokens' | 'revokedSessions'>;

/**
 * `GET /api/users/me/export` (product.md §14; Mongolia's 2021 law on personal data gives the
 * right of access): everything the service keeps about the listener, and nothing about others —
 * a family plan shows its seats, not its members.
 */
export async function exportAccount(deps: DataDeps, userId: string, sessionId: string | undefined) {
  const now = deps.clock.now();
  const user = await getUser(deps.db, userId);
  const [profile, memberships, invitations, payments, messages, sessions, trials] = await Promise.all([
    getProfile(deps.db, userId, now),
    deps.db
      .selectFrom('subscription_members')
      .select(['subscription_id', 'joined_at'])
      .where('user_id', '=', userId)
      .execute(),
    deps.db
      .selectFrom('invitation_codes as i')
      .innerJoin('subscriptions as s', 's.id', 'i.subscription_id')
      .select(['i.created_at', 'i.expires_at', 'i.used_at'])
      .where('s.owner_id', '=', userId)
      .execute(),
    deps.db
      .selectFrom('payment_invoices as p')
      .innerJoin('packages as k', 'k.id', 'p.package_id')
      .select([
        'p.invoice_id',
        'p.amount',
        'p.currency',
        'p.status',
        'p.created_at',
        'p.settled_at',
        'k.name_en',
      ])
      .where('p.user_id', '=', userId)
      .orderBy('p.created_at', 'desc')
      .execute(),
    messagesSentToAccount(deps.db, userId),
    listSessions(deps, userId, sessionId),
    trialsForExport(deps.db, userId),
  ]);
  return {
    exportedAt: now.toISOString(),
    account: {
      id: user.id,
      username: user.username,
      createdAt: user.created_at.toISOString(),
      country: user.iso2_country_code,
      language: user.language,
    },
    profile,
    familyMemberships: memberships.map((row) => ({
      subscriptionId: row.subscription_id,
      joinedAt: new Date(row.joined_at).toISOString(),
    })),
    invitationsSent: invitations.map((row) => ({
      createdAt: row.created_at.toISOString(),
      expiresAt: row.expires_at.toISOString(),
      usedAt: row.used_at?.toISOString() ?? null,
    })),
    payments: payments.map((row) => ({
      invoiceId: row.invoice_id,
      packageName: row.name_en,
      amount: row.amount,
      currency: row.currency,
      status: row.status,
      createdAt: new Date(row.created_at).toISOString(),
      settledAt: row.settled_at ? new Date(row.settled_at).toISOString() : null,
    })),
    trials,
    messages: messages.map((row) => ({
      channel: row.channel,
      to: row.recipient,
      subject: row.subject,
      text: row.text.replace(/\b\d{4}\b/g, '••••'),
      sentAt: new Date(row.created_at).toISOString(),
    })),
    sessions,
  };
}

/**
 * `DELETE /api/users/me` after a fresh proof (product.md §14): renewals stop; the members of a
 * plan the listener owns are told and keep their seats to the period's end; the listener leaves
 * any plan they joined and its owner is told; personal data is erased — the number and address are free to register
 * again — while payment records stay, without personal fields, as accounting law requires.
 */
export async function deleteAccount(deps: DataDeps, userId: string, log?: FastifyBaseLogger): Promise<void> {
  const now = deps.clock.now();
  const user = await getUser(deps.db, userId);
  const recipients = [user.phone_number, user.primary_email, user.pending_email, user.pending_phone].filter(
    (value): value is string => Boolean(value),
  );
  const lang = languageOf(user.language);
  // The owners of the live plans the listener joined are told, as when a member leaves.
  const joinedPlans = await deps.db
    .selectFrom('subscription_members as m')
    .innerJoin('subscriptions as s', 's.id', 'm.subscription_id')
    .select('s.owner_id')
    .where('m.user_id', '=', userId)
    .where('s.end_date', '>', now)
    .execute();

  const members = await deps.db
    .selectFrom('subscriptions as s')
    .innerJoin('subscription_members as m', 'm.subscription_id', 's.id')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['u.id', 'u.phone_number', 'u.primary_email', 'u.language', 's.end_date'])
    .where('s.owner_id', '=', userId)
    .where('s.end_date', '>', now)
    .execute();

  await deps.db.transaction().execute(async (trx) => {
    // One deletion of many at once does it: the account is claimed first.
    const claimed = await trx
      .updateTable('users')
      .set({ deleted_at: now })
      .where('id', '=', userId)
      .where('deleted_at', 'is', null)
      .returning('id')
      .executeTakeFirst();
    if (!claimed) throw unauthorized('The account no longer exists.');
    // Its open invoices close with it (a page left open can no longer buy anything: a payment
    // that still arrives is refunded, premium/capture-once.ts); the periodic check closes their
    // pages at the providers.
    await trx
      .updateTable('payment_invoices')
      .set({ status: 'cancelled', settled_at: now })
      .where('user_id', '=', userId)
      .where('status', '=', 'created')
      .execute();
    // Their offer places are free again (modules/offers).
    await releaseOffersOf(trx, userId, now);
    // Leaving the joined plans changes their seats: their rows are taken first, as by every
    // other change of seats (family/seat-limit.ts), in the order an accept takes them (plan, then user).
    await trx
      .selectFrom('subscriptions')
      .select('id')
      .where(
        'id',
        'in',
        trx.selectFrom('subscription_members').select('subscription_id').where('user_id', '=', userId),
      )
      .forUpdate()
      .execute();
    await trx
      .updateTable('subscriptions')
      .set({
        is_auto_renew: false,
        cancelled_at: now,
        updated_at: now,
        next_billing_at: null,
        grace_until: null,
      })
      .where('owner_id', '=', userId)
      .execute();
    // The card on file goes with the account; its invoices stay, without personal fields.
    await trx.deleteFrom('saved_cards').where('user_id', '=', userId).execute();
    await trx.deleteFrom('subscription_members').where('user_id', '=', userId).execute();
    await trx.deleteFrom('family_departures').where('user_id', '=', userId).execute();
    await trx
      .deleteFrom('invitation_codes')
      .where('used_by', 'is', null)
      .where(
        'subscription_id',
        'in',
        trx.selectFrom('subscriptions').select('id').where('owner_id', '=', userId),
      )
      .execute();
    await trx.deleteFrom('cache_items').where('user_id', '=', userId).execute();
    await trx
      .updateTable('payment_logs')
      .set({ subscriber_name: '', request: null, response: null })
      .where('user_id', '=', userId)
      .execute();
    // Nobody can print these receipts any more: their lottery numbers and QR data go (decision 0033).
    await trx
      .updateTable('ebarimt_receipts')
      .set({ lottery: null, qr_data: null })
      .where(
        'invoice_id',
        'in',
        trx.selectFrom('payment_invoices').select('invoice_id').where('user_id', '=', userId),
      )
      .execute();
    if (recipients.length > 0) {
      await trx.deleteFrom('otp_codes').where('target', 'in', recipients).execute();
      await trx.deleteFrom('feedback').where('email', 'in', recipients).execute();
      await trx.deleteFrom('coupon_notifications').where('msisdn', 'in', recipients).execute();
    }
    // Its messages, and those to its addresses that name no account (codes before it existed);
    // a previous holder's messages to the same number are theirs and stay.
    await trx
      .deleteFrom('outbox_messages')
      .where((eb) =>
        eb.or([
          eb('user_id', '=', userId),
          ...(recipients.length > 0
            ? [eb.and([eb('user_id', 'is', null), eb('recipient', 'in', recipients)])]
            : []),
        ]),
      )
      .execute();
    await trx.deleteFrom('password_resets').where('user_id', '=', userId).execute();
    await trx
      .updateTable('users')
      .set({
        username: `deleted:${userId}`,
        first_name: '',
        last_name: '',
        display_name: '',
        primary_email: null,
        pending_email: null,
        phone_number: null,
        pending_phone: null,
        password_hash: null,
        birth_year: null,
        gender: null,
        tags: [],
        deleted_at: now,
        updated_at: now,
      })
      .where('id', '=', userId)
      .execute();
  });
  await revokeAllForUser(deps, userId);

  for (const member of members) {
    const memberLang = languageOf(member.language);
    const text = accountMessages.familyEnding(memberLang, messageDate(new Date(member.end_date), memberLang));
    if (member.phone_number)
      await sendToAccount(deps, member.id, { channel: 'sms', to: member.phone_number, text }, log);
    else if (member.primary_email) {
      await sendToAccount(
        deps,
        member.id,
        { channel: 'email', to: member.primary_email, subject: 'Tunes', text },
        log,
      );
    }
  }
  for (const plan of joinedPlans) {
    await tellOwnerMemberLeft(
      deps,
      plan.owner_id,
      { first_name: user.first_name, phone_number: user.phone_number },
      log,
    );
  }
  // The goodbye goes out after the erasure, so it is the one message the outbox keeps for them.
  const goodbye = accountMessages.accountDeleted(lang);
  if (user.primary_email) {
    await sendToAccount(
      deps,
      userId,
      {
        channel: 'email',
        to: user.primary_email,
        subject: accountMessages.accountDeletedSubject(lang),
        text: goodbye,
      },
      log,
    );
  } else if (user.phone_number) {
    await sendToAccount(deps, userId, { channel: 'sms', to: user.phone_number, text: goodbye }, log);
  }
}
