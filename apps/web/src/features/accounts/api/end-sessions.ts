import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { sessionsQueryKey } from './get-sessions';

const errors = { messages: { other: 'accounts:devices.sign-out-failed' }, toast: 'message' } as const;

/** `DELETE /api/users/me/sessions/{id}`: that device's refresh token stops working at once. */
export function endSession(id: string): Promise<null> {
  return apiRequest<null>(`/api/users/me/sessions/${encodeURIComponent(id)}`, {
    method: 'DELETE',
    auth: true,
    errors,
  });
}

/** `DELETE /api/users/me/sessions`: every device but this one is signed out. */
export function endOtherSessions(): Promise<null> {
  return apiRequest<null>('/api/users/me/sessions', { method: 'DELETE', auth: true, errors });
}

/** Signs one device out (an id) or every other (no id); the list reloads either way. */
export function useEndSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id?: string) => (id ? endSession(id) : endOtherSessions()),
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionsQueryKey }),
  });
}
