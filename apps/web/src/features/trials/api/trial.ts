import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { API_ERROR_CODES } from '@tunes/shared/error-codes';
import { apiRequest } from '@/lib/api-client';
import { useSession } from '@/lib/auth';
import type { TrialEligibility, TrialMethod, TrialStart } from '../types';

export const trialKey = (sub: string) => ['trial', sub] as const;

/** Whether the signed-in listener may start a free trial, and the plans that have one. */
export function useTrialEligibility(enabled: boolean) {
  const session = useSession();
  return useQuery({
    queryKey: trialKey(session?.sub ?? ''),
    queryFn: () => apiRequest<TrialEligibility>('/api/premium/trial', { auth: true }),
    enabled: enabled && Boolean(session),
    retry: false,
    staleTime: 60_000,
  });
}

export interface TrialChoice {
  merchantCode: string;
  method: TrialMethod;
}

/** Starts a trial: the form shows a refusal in its own words, so nothing is toasted. */
export function startTrial({ merchantCode, method }: TrialChoice): Promise<TrialStart> {
  return apiRequest<TrialStart>('/api/premium/trial', {
    method: 'POST',
    json: { MerchantCode: merchantCode, method },
    auth: true,
    errors: {
      messages: {
        [API_ERROR_CODES.trialNotEligible]: 'premium:trial.refused',
        other: 'premium:trial.failed',
      },
    },
  });
}

/** A card trial goes on to the gateway's save-card page; a QPay trial has started when it answers. */
export function useStartTrial() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: startTrial,
    onSuccess: async (answer) => {
      if ('url' in answer) window.location.assign(answer.url);
      else await queryClient.invalidateQueries({ queryKey: ['trial'] });
    },
    onError: (error) => console.error('trial start failed', error),
  });
}
