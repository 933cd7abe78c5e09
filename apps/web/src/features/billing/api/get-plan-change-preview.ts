import { useQuery } from '@tanstack/react-query';
import type { PlanChangePreview } from '@tunes/shared/billing';
import { apiRequest } from '@/lib/api-client';

export function getPlanChangePreview(
  subscriptionId: string,
  merchantCode: string,
): Promise<PlanChangePreview> {
  const query = new URLSearchParams({ plan: merchantCode });
  return apiRequest<PlanChangePreview>(
    `/api/subscriptions/${encodeURIComponent(subscriptionId)}/plan-change/preview?${query}`,
    { auth: true, errors: { messages: { other: 'billing:change.preview-failed' } } },
  );
}

/**
 * What confirming a change to `merchantCode` would charge now and when the plan starts, worked
 * out by the server with the very function the change uses (issue 37). Asked afresh each time a
 * plan is chosen: the amount shrinks as the period runs.
 */
export function usePlanChangePreview(subscriptionId: string, merchantCode: string | null) {
  return useQuery({
    queryKey: ['billing', 'plan-change-preview', subscriptionId, merchantCode],
    queryFn: () => getPlanChangePreview(subscriptionId, merchantCode ?? ''),
    enabled: merchantCode !== null,
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
}
