import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Pause, PauseState } from '@tunes/shared/billing';
import { apiRequest } from '@/lib/api-client';
import type { ErrorMessages } from '@/lib/api-error';
import { useSession } from '@/lib/auth';
import { refreshBilling } from './refresh-billing';

export function getPauseState(): Promise<PauseState> {
  return apiRequest<PauseState>('/api/users/me/pause', { auth: true });
}

/** The listener's pause, or whether their plan may be paused (issue 37). */
export function usePauseState(version: string, enabled = true) {
  const session = useSession();
  return useQuery({
    queryKey: ['pause', session?.sub ?? '', version],
    queryFn: getPauseState,
    enabled: enabled && Boolean(session),
    placeholderData: keepPreviousData,
  });
}

const pauseErrors: ErrorMessages = {
  already_paused: 'billing:pause.already-paused',
  renewal_pending: 'billing:pause.unavailable.renewal_pending',
  needs_card: 'billing:pause.unavailable.needs_card',
  trial_not_pausable: 'billing:pause.unavailable.trial',
  not_renewing: 'billing:pause.unavailable.not_renewing',
  plan_not_pausable: 'billing:pause.unavailable.no_plan',
  not_paused: 'billing:pause.not-paused',
  other: 'billing:pause.failed',
};

export function pausePremium({ subscriptionId, months }: { subscriptionId: string; months: 1 | 2 | 3 }) {
  return apiRequest<Pause>(`/api/subscriptions/${encodeURIComponent(subscriptionId)}/pause`, {
    method: 'POST',
    json: { months },
    auth: true,
    errors: { messages: pauseErrors },
  });
}

export function resumePremium(subscriptionId: string) {
  return apiRequest<{ outcome: string }>(`/api/subscriptions/${encodeURIComponent(subscriptionId)}/pause`, {
    method: 'DELETE',
    auth: true,
    errors: { messages: pauseErrors, toast: 'message' },
  });
}

export function usePausePremium() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: pausePremium, onSuccess: () => refreshBilling(queryClient) });
}

export function useResumePremium() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resumePremium,
    onSuccess: () => refreshBilling(queryClient),
    onError: (error) => console.error('resume failed', error),
  });
}
