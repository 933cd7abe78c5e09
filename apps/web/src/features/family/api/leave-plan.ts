import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

/** `POST /api/subscription/{id}/leave`: a member leaves; the seat frees and the owner is told. */
export function leavePlan(subscriptionId: string): Promise<null> {
  return apiRequest<null>(`/api/subscription/${encodeURIComponent(subscriptionId)}/leave`, {
    method: 'POST',
    auth: true,
    errors: { messages: { other: 'family:leave.failed' } },
  });
}

/** Leaves the plan, then reloads the profile: the member holds no plan any more. */
export function useLeavePlan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: leavePlan,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['profile'] }),
  });
}
