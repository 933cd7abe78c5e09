import { API_ERROR_CODES } from '@tunes/shared/error-codes';
import type { OfferReason } from '@tunes/shared/offers';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import './tables.js';

export const OFFER_MESSAGES = {
  notFound: 'This offer code is not valid.',
  ended: 'This offer has ended.',
  exhausted: 'This offer has been fully redeemed.',
  notForYou: 'This offer is not available for your account.',
  notThisPlan: 'This offer does not apply to this plan.',
} as const;

export function findOfferByCode(db: Kysely<Database>, code: string) {
  return db.selectFrom('offers').selectAll().where('code', '=', code.toUpperCase()).executeTakeFirst();
}
export type OfferRow = NonNullable<Awaited<ReturnType<typeof findOfferByCode>>>;

export const hasEnded = (offer: Pick<OfferRow, 'ended_at' | 'ends_at'>, now: Date) =>
  offer.ended_at !== null || offer.ends_at.getTime() <= now.getTime();

/**
 * The refusals of an offer that is not open, in the public look-up's statuses (404, 410, 409);
 * checkout answers an unknown code with 400 and names the field.
 */
export function offerClosedError(offer: OfferRow | undefined, now: Date, field?: string): AppError | null {
  const extra = field ? { field } : {};
  if (!offer)
    return new AppError(field ? 400 : 404, API_ERROR_CODES.offerNotFound, OFFER_MESSAGES.notFound, extra);
  if (hasEnded(offer, now)) return new AppError(410, API_ERROR_CODES.offerEnded, OFFER_MESSAGES.ended, extra);
  if (offer.redeemed >= offer.max_redemptions) {
    return new AppError(409, API_ERROR_CODES.offerExhausted, OFFER_MESSAGES.exhausted, extra);
  }
  return null;
}

/**
 * Why `userId` may not redeem the offer, or null: `new` is for who never had Premium, `returning`
 * for who had it and has none now, and each account redeems an offer once (a released
 * redemption, an invoice never paid, does not count).
 */
export async function ineligibility(
  db: Kysely<Database>,
  offer: Pick<OfferRow, 'id' | 'audience'>,
  userId: string,
  now: Date,
): Promise<OfferReason | null> {
  const row = await db
    .selectNoFrom((eb) => [
      eb
        .exists(
          eb
            .selectFrom('offer_redemptions')
            .select('id')
            .where('offer_id', '=', offer.id)
            .where('user_id', '=', userId)
            .where('status', '<>', 'released'),
        )
        .as('redeemed'),
      eb.exists(eb.selectFrom('subscriptions').select('id').where('owner_id', '=', userId)).as('ever'),
      eb
        .exists(
          eb
            .selectFrom('subscriptions')
            .select('id')
            .where('owner_id', '=', userId)
            .where((w) => w.or([w('end_date', '>', now), w('grace_until', '>', now)])),
        )
        .as('current'),
    ])
    .executeTakeFirstOrThrow();
  if (row.redeemed) return 'already_redeemed';
  if (offer.audience === 'new' && row.ever) return 'not_new';
  if (offer.audience === 'returning' && (!row.ever || row.current)) return 'not_returning';
  return null;
}

/**
 * Takes one of the offer's places for a purchase invoice, atomically against the limit: one
 * statement raises `redeemed` only while it is under the limit and the offer open (concurrent
 * callers wait on the offer's row and see the count the last one left), and records the
 * reservation. Answers the redemption's id, or null when no place was taken. A second open
 * redemption of the same account fails the statement on its unique index (`isOneRedemptionError`).
 */
export async function reserveOffer(
  db: Kysely<Database>,
  args: { offerId: string; userId: string; invoiceId: string; now: Date },
): Promise<string | null> {
  const { rows } = await sql<{ id: string }>`
    with taken as (
      update offers set redeemed = redeemed + 1
      where id = ${args.offerId}::uuid and redeemed < max_redemptions
        and ended_at is null and ends_at > ${args.now}::timestamptz
      returning id
    )
    insert into offer_redemptions (offer_id, user_id, invoice_id, status, created_at)
    select id, ${args.userId}::uuid, ${args.invoiceId}::text, 'reserved', ${args.now}::timestamptz
    from taken
    returning id`.execute(db);
  return rows[0]?.id ?? null;
}

/** The unique index of one open redemption per account and offer refused a reservation. */
export function isOneRedemptionError(error: unknown): boolean {
  const { code, constraint, message } = (error ?? {}) as {
    code?: string;
    constraint?: string;
    message?: string;
  };
  return (
    code === '23505' &&
    (constraint === 'offer_redemptions_one_per_account' ||
      String(message).includes('offer_redemptions_one_per_account'))
  );
}

/** An invoice that failed or expired unpaid gives its reserved place back. */
export async function releaseOffer(db: Kysely<Database>, invoiceId: string, now: Date): Promise<void> {
  await sql`
    with released as (
      update offer_redemptions set status = 'released', settled_at = ${now}
      where invoice_id = ${invoiceId} and status = 'reserved'
      returning offer_id
    )
    update offers set redeemed = redeemed - 1 where id in (select offer_id from released)`.execute(db);
}

/**
 * A paid invoice priced with a redemption (in the transaction that applies it): the redemption
 * becomes the subscription's offer, and a purchase or renewal uses one of its periods.
 */
export async function offerPeriodPaid(
  db: Kysely<Database>,
  args: { redemptionId: string; subscriptionId: string; kind: string; now: Date },
): Promise<void> {
  if (args.kind === 'change') return;
  await sql`
    update offer_redemptions
    set status = 'active', subscription_id = ${args.subscriptionId}::uuid,
        settled_at = coalesce(settled_at, ${args.now}), periods_used = periods_used + 1,
        discounted_until = (select end_date from subscriptions where id = ${args.subscriptionId}::uuid)
    where id = ${args.redemptionId}::uuid and status <> 'released'`.execute(db);
}

/** A deleted account's open checkouts close with it: their reserved places are given back. */
export async function releaseOffersOf(db: Kysely<Database>, userId: string, now: Date): Promise<void> {
  await sql`
    with released as (
      update offer_redemptions set status = 'released', settled_at = ${now}
      where user_id = ${userId}::uuid and status = 'reserved'
      returning offer_id
    ), counts as (select offer_id, count(*)::integer as n from released group by offer_id)
    update offers o set redeemed = o.redeemed - c.n from counts c where o.id = c.offer_id`.execute(db);
}
