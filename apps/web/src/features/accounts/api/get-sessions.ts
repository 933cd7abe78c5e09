import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Session } from '@tunes/shared/accounts';
import { apiRequest } from '@/lib/api-client';

export const sessionsQueryKey = ['accounts', 'sessions'] as const;

/** `GET /api/users/me/sessions`: the signed-in devices, newest use first (product.md §14). */
export function getSessions(): Promise<Session[]> {
  return apiRequest<Session[]>('/api/users/me/sessions', {
    auth: true,
    errors: { messages: { other: 'accounts:devices.failed' } },
  });
}

export const sessionsQueryOptions = () => queryOptions({ queryKey: sessionsQueryKey, queryFn: getSessions });

export function useSessions() {
  return useQuery(sessionsQueryOptions());
}
