import { queryOptions } from '@tanstack/react-query';
import { MERCHANT_ID } from '@tunes/shared/constants';
import type { Plan } from '@tunes/shared/premium';
import { apiRequest } from './api-client';

/**
 * The plans of a merchant (product.md §7), one query shared by the features that show them:
 * /premium sells them, the profile's billing section changes between them.
 */
export function getAllPlans(merchantId: number): Promise<Plan[]> {
  return apiRequest<Plan[]>('/api/packages/allplans', { query: { merchantId } });
}

export const plansQuery = (merchantId: number | undefined) =>
  queryOptions({
    queryKey: ['plans', merchantId],
    queryFn: () => getAllPlans(merchantId ?? MERCHANT_ID),
    enabled: merchantId !== undefined,
    staleTime: 5 * 60_000,
  });
