import { useQuery } from '@tanstack/react-query';
import type { PauseState } from '@tunes/shared/billing';
import { apiRequest } from '@/lib/api-client';
import { useSession } from '@/lib/auth';

/**
 * Whether the listener's Premium is paused (issue 37), for the subscription block: a paused plan
 * is not one that ended. (The billing block's pause controls read the same call.)
 */
export function usePausedUntil(enabled: boolean): string | null {
  const session = useSession();
  const state = useQuery({
    queryKey: ['pause-status', session?.sub ?? ''],
    queryFn: () => apiRequest<PauseState>('/api/users/me/pause', { auth: true }),
    enabled: enabled && Boolean(session),
  });
  const pause = state.data?.pause;
  return pause?.started ? pause.resumesAt : null;
}
