import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Billing } from '@tunes/shared/billing';
import { apiRequest } from '@/lib/api-client';
import { useSession } from '@/lib/auth';

export function getBilling(): Promise<Billing> {
  return apiRequest<Billing>('/api/users/me/billing', { auth: true });
}

/**
 * The card on file and the next charge of the signed-in listener's own plan (product.md §12).
 * `version` names the plan as the profile last read it (id, end, auto-renew, package), so a
 * change made elsewhere on the page (a cancel, a renewal) reads the billing again.
 */
export function useBilling(version: string, enabled = true) {
  const session = useSession();
  return useQuery({
    queryKey: ['billing', session?.sub ?? '', version],
    queryFn: getBilling,
    enabled: enabled && Boolean(session),
    // The section stays on screen (and its messages with it) while the new answer comes.
    placeholderData: keepPreviousData,
  });
}
