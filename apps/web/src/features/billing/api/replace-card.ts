import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

export function replaceCard(): Promise<{ url: string }> {
  return apiRequest<{ url: string }>('/api/users/me/card/replace', {
    method: 'POST',
    auth: true,
    errors: { messages: { other: 'billing:card.replace-failed' }, toast: 'message' },
  });
}

/**
 * Opens the gateway's save-card page (nothing is charged); the gateway sends the listener back
 * to /profile?card=<outcome> through the server, which asks the gateway first (product.md §12).
 */
export function useReplaceCard() {
  return useMutation({
    mutationFn: replaceCard,
    onSuccess: ({ url }) => window.location.assign(url),
    onError: (error) => console.error('replace card failed', error),
  });
}
