import { apiRequest, type TokenResponse } from '@/lib/api-client';

/**
 * `POST /api/users/{userId}/validateHMAC` with the HMAC token as Authorization (product.md §7). A
 * failure toasts the Mongolian 'log in again' and reads the product.md §8 text of its status, else
 * the server's own message.
 */
export function validateHmac(userId: string, token: string): Promise<TokenResponse> {
  return apiRequest<TokenResponse>(`/api/users/${encodeURIComponent(userId)}/validateHMAC`, {
    method: 'POST',
    headers: { Authorization: token },
    errors: {
      messages: {
        400: 'accounts:silent.error-400',
        401: 'accounts:silent.error-400',
        402: 'accounts:silent.error-402',
        403: 'accounts:silent.error-403',
        404: 'accounts:silent.error-404',
        other: 'raw',
      },
      toast: { other: 'accounts:silent.failure' },
    },
  });
}
