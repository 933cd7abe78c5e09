import { useMutation } from '@tanstack/react-query';
import type { changePasswordSchema } from '@tunes/shared/accounts';
import { API_ERROR_CODES } from '@tunes/shared/error-codes';
import type { z } from 'zod';
import { apiRequest } from '@/lib/api-client';

export type PasswordChange = z.input<typeof changePasswordSchema>;

/** `POST /api/users/me/password` (product.md §14): every other device is signed out. */
export function changePassword(change: PasswordChange) {
  return apiRequest<{ message: string }>('/api/users/me/password', {
    method: 'POST',
    json: change,
    auth: true,
    errors: {
      messages: {
        [API_ERROR_CODES.wrongPassword]: 'accounts:password.wrong',
        429: 'errors.too-many-requests',
        other: 'accounts:password.failed',
      },
    },
  });
}

export function useChangePassword() {
  return useMutation({ mutationFn: changePassword });
}
