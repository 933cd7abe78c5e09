import { toNestErrors } from '@hookform/resolvers';
import { SERVICE_UTC_OFFSET } from '@tunes/shared/constants';
import { API_ERROR_CODES } from '@tunes/shared/error-codes';
import {
  type ConsoleOffer,
  type OFFER_AUDIENCES,
  type OFFER_KINDS,
  type OfferCreate,
  offerCreateSchema,
} from '@tunes/shared/offers';
import type { FieldError, Resolver } from 'react-hook-form';
import { adminApi } from '../../api';
import { issueText } from '../../forms';
import { consoleQueryClient } from '../../session';

/** The console's offer calls (docs/console-api.md "Offers"), admin only. */

export const offersKey = ['admin', 'offers'] as const;

export const listOffers = () => adminApi<{ offers: ConsoleOffer[] }>('/offers');

const MESSAGES = { [API_ERROR_CODES.offerCodeTaken]: 'admin:offers.errors.taken' } as const;

export async function createOffer(offer: OfferCreate): Promise<ConsoleOffer> {
  const created = await adminApi<ConsoleOffer | { offer: ConsoleOffer }>('/offers', {
    method: 'POST',
    json: offer,
    messages: MESSAGES,
  });
  await consoleQueryClient.invalidateQueries({ queryKey: offersKey });
  return 'offer' in created ? created.offer : created;
}

export async function endOffer(offer: ConsoleOffer): Promise<void> {
  await adminApi(`/offers/${encodeURIComponent(offer.id)}/end`, { method: 'POST', json: {} });
  await consoleQueryClient.invalidateQueries({ queryKey: offersKey });
}

/** The form's values: the end as the day it ends (the date field), the plans as ticked boxes. */
export interface OfferFormValues {
  code: string;
  kind: (typeof OFFER_KINDS)[number];
  value: number;
  periods: number;
  audience: (typeof OFFER_AUDIENCES)[number];
  /** None ticked: every plan on sale. */
  plans: string[];
  maxRedemptions: number;
  endsOn: string;
}

/** The end of the chosen day in Ulaanbaatar, the service's day. */
export const endOfDay = (day: string) =>
  /^\d{4}-\d{2}-\d{2}$/.test(day) ? new Date(`${day}T23:59:59.999${SERVICE_UTC_OFFSET}`).toISOString() : day;

/** The request the form's values make; checked by the shared schema before the call. */
export function offerRequest(values: OfferFormValues): unknown {
  const { endsOn, plans, ...rest } = values;
  return { ...rest, plans: plans.length > 0 ? plans : null, endsAt: endOfDay(endsOn) };
}

/** A resolver of the shared create schema: its issues on the form's fields (endsAt on the day). */
export const offerResolver: Resolver<OfferFormValues, unknown, OfferCreate> = async (
  values,
  _context,
  options,
) => {
  const result = await offerCreateSchema.safeParseAsync(offerRequest(values));
  if (result.success) return { values: result.data, errors: {} };
  const errors: Record<string, FieldError> = {};
  for (const issue of result.error.issues) {
    const [first] = issue.path;
    const field = first === 'endsAt' ? 'endsOn' : String(first ?? 'code');
    errors[field] ??= { type: issue.code, message: issueText(issue) };
  }
  return { values: {}, errors: toNestErrors(errors, options) };
};
