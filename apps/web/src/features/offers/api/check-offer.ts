import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { ApiError } from '@/lib/api-error';
import { useSession } from '@/lib/auth';
import { OFFER_CODE_PATTERN, OFFER_REFUSALS, type OfferCheck, type OfferRefusalKey } from '../types';

/**
 * `GET /api/offers/:code`: the offer and its price per plan. Signed in, the answer also says
 * whether this listener may use it (new or returning subscribers, once per account).
 */
export function checkOffer(code: string, signedIn: boolean): Promise<OfferCheck> {
  return apiRequest<OfferCheck>(`/api/offers/${encodeURIComponent(code)}`, {
    auth: signedIn,
    errors: { messages: { other: 'premium:offer.refused.failed' } },
  });
}

/** The `premium` key of why a code was refused: its own words for the offer's codes. */
export function offerRefusalKey(error: unknown): OfferRefusalKey {
  const code = error instanceof ApiError ? error.code : undefined;
  if (code && code in OFFER_REFUSALS) return OFFER_REFUSALS[code as keyof typeof OFFER_REFUSALS];
  if (error instanceof ApiError && error.status === 404) return OFFER_REFUSALS.offer_not_found;
  // Codes are not to be walked: a client that tried too many is asked to wait (security.md).
  if (error instanceof ApiError && error.status === 429) return 'offer.refused.too-many';
  return 'offer.refused.failed';
}

/** The offer of `code` (null: none asked for); a code of the wrong shape is refused without a call. */
export function useOfferCheck(code: string | null) {
  const session = useSession();
  const wellFormed = code !== null && OFFER_CODE_PATTERN.test(code);
  return useQuery({
    queryKey: ['offer', code ?? '', session?.sub ?? ''],
    queryFn: () => checkOffer(code ?? '', Boolean(session)),
    enabled: wellFormed,
    retry: false,
    staleTime: 60_000,
  });
}
