import type { SavedCard } from '@tunes/shared/billing';
import { API_ERROR_CODES } from '@tunes/shared/error-codes';
import type { Deps } from '../../deps.js';
import { AppError } from '../../lib/errors.js';
import type { ProviderCard } from '../providers/card-gateway.js';
import { GatewayError } from '../providers/exchange.js';
import './tables.js';

/**
 * The card on file (product.md §12): one per listener, the gateway's token only. A newer card
 * saved at a later checkout replaces the older one.
 */
export async function keepCard(deps: Pick<Deps, 'db' | 'clock'>, userId: string, card: ProviderCard) {
  const values = {
    provider_token: card.token,
    brand: card.brand,
    last4: card.last4,
    expires: card.expires,
    saved_at: deps.clock.now(),
  };
  await deps.db
    .insertInto('saved_cards')
    .values({ user_id: userId, ...values })
    .onConflict((oc) => oc.column('user_id').doUpdateSet(values))
    .execute();
}

/** The token to charge for a listener's renewals, or null without a card on file. */
export async function cardToken(deps: Pick<Deps, 'db'>, userId: string) {
  const card = await deps.db
    .selectFrom('saved_cards')
    .select(['provider_token', 'brand', 'last4'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return card ?? null;
}

/** What the profile shows of the card on file. */
export async function savedCard(deps: Pick<Deps, 'db'>, userId: string): Promise<SavedCard | null> {
  const card = await deps.db
    .selectFrom('saved_cards')
    .select(['brand', 'last4', 'expires', 'saved_at'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return card
    ? { brand: card.brand, last4: card.last4, expires: card.expires, savedAt: card.saved_at.toISOString() }
    : null;
}

/** Removes the card on file; renewals then go by a payment link. Answers whether there was one. */
export async function removeCard(deps: Pick<Deps, 'db'>, userId: string): Promise<boolean> {
  const removed = await deps.db.deleteFrom('saved_cards').where('user_id', '=', userId).executeTakeFirst();
  return Number(removed.numDeletedRows) > 0;
}

/**
 * Opens the gateway's save-card page (no charge) for a listener, under our unguessable
 * `reference`, returning to `redirectUrl` (a new card on file, a card trial). A gateway that
 * cannot open it: `onRefused` closes what the reference began, and the listener gets a 502.
 */
export async function openSaveCardPage(
  deps: Pick<Deps, 'paymentGateway'>,
  user: { language: string; phone_number: string | null; primary_email: string | null },
  session: { reference: string; redirectUrl: string; onRefused: () => Promise<unknown> },
): Promise<{ url: string }> {
  try {
    const opened = await deps.paymentGateway.openCardSession({
      reference: session.reference,
      redirect_url: session.redirectUrl,
      languageCode: user.language === 'mn' ? 'mn' : 'en',
      ...(user.phone_number ? { phone: user.phone_number } : {}),
      ...(user.primary_email ? { email: user.primary_email } : {}),
    });
    return { url: deps.paymentGateway.cardPageUrl(opened.result.token) };
  } catch (error) {
    if (!(error instanceof GatewayError)) throw error;
    await session.onRefused();
    throw new AppError(502, API_ERROR_CODES.paymentGatewayError, 'The card gateway could not open its page.');
  }
}
