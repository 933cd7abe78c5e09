import { apiRequest } from '@/lib/api-client';

/** `POST /api/users/forgot-password` with Language 'MN' (product.md §9). */
export function forgotPassword(email: string) {
  return apiRequest<{ message: string }>('/api/users/forgot-password', {
    method: 'POST',
    json: { Email: email, Language: 'MN' },
    errors: { messages: { other: 'accounts:messages.forgot-failed' } },
  });
}

/**
 * Sets the new password with the token of the e-mailed link. The form checks the password with
 * the server's own schema first, so a 400 is about the link.
 */
export function resetPassword(token: string, password: string) {
  return apiRequest<{ message: string; Email: string | null }>('/api/users/reset-password', {
    method: 'POST',
    json: { Token: token, Password: password },
    errors: { messages: { 400: 'accounts:reset.invalid', other: 'accounts:messages.forgot-failed' } },
  });
}
