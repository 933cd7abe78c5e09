import { API_ERROR_CODES } from '@tunes/shared/error-codes';
import { offerDiscount } from '@tunes/shared/offers';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { AppError, badRequest } from '../../lib/errors.js';
import { coversPlan } from './pricing.js';
import {
  findOfferByCode,
  ineligibility,
  isOneRedemptionError,
  OFFER_MESSAGES,
  type OfferRow,
  offerClosedError,
  reserveOffer,
} from './redemption.js';

const FIELD = 'OfferCode';

const notForYou = () =>
  new AppError(409, API_ERROR_CODES.offerNotForYou, OFFER_MESSAGES.notForYou, { field: FIELD });

/** An offer a checkout may use, and what it takes off the plan's price. */
export interface PurchaseOffer {
  offer: OfferRow;
  discount: number;
}

/**
 * Checks an offer code for a purchase of `plan` by `userId` (before anything is written): open,
 * covering the plan, and for this listener. The place is taken with the invoice (`withOffer`).
 */
export async function offerForPurchase(
  db: Kysely<Database>,
  userId: string,
  code: string,
  plan: { id: number; cost: number },
  now: Date,
): Promise<PurchaseOffer> {
  const offer = await findOfferByCode(db, code);
  const closed = offerClosedError(offer, now, FIELD);
  if (closed || !offer) throw closed;
  if (!coversPlan(offer, plan.id)) throw badRequest(OFFER_MESSAGES.notThisPlan, FIELD);
  if (await ineligibility(db, offer, userId, now)) throw notForYou();
  return { offer, discount: offerDiscount(plan.cost, offer) };
}

/**
 * Writes a purchase invoice (`write`, given the redemption's id) with the offer's place taken in
 * the same transaction: the invoice exists only with its place, and a place only with its
 * invoice. No place left (a burst took the last) answers what the look-up would.
 */
export async function withOffer(
  db: Kysely<Database>,
  purchase: PurchaseOffer,
  args: { userId: string; invoiceId: string; now: Date },
  write: (trx: Kysely<Database>, redemptionId: string) => Promise<void>,
): Promise<void> {
  try {
    await db.transaction().execute(async (trx) => {
      const redemptionId = await reserveOffer(trx, { offerId: purchase.offer.id, ...args });
      if (!redemptionId) {
        const current = await findOfferByCode(trx, purchase.offer.code);
        throw (
          offerClosedError(current, args.now, FIELD) ??
          new AppError(409, API_ERROR_CODES.offerExhausted, OFFER_MESSAGES.exhausted, { field: FIELD })
        );
      }
      await write(trx, redemptionId);
    });
  } catch (error) {
    // Two checkouts of one account at once: the second finds the first's reservation.
    if (isOneRedemptionError(error)) throw notForYou();
    throw error;
  }
}
