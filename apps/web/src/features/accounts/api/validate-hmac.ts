import { apiRequest, type TokenResponse } from '@/lib/api-client';

/** `POST /api/users/{userId}/validateHMAC` with the HMAC token as Authorization (product.md §7). */
export function validateHmac(userId: string, token: string): Promise<TokenResponse> {
  return apiRequest<TokenResponse>(`/api/users/${encodeURIComponent(userId)}/validateHMAC`, {
    method: 'POST',
    headers: { Authorization: token },
  });
}
