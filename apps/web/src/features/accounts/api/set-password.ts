import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CODE_LOCKED_ERROR } from '@tunes/shared/account-codes';
import { API_ERROR_CODES } from '@tunes/shared/error-codes';
import { apiRequest } from '@/lib/api-client';

/** `POST /api/users/me/password/set` (issue 37): a first password, proven by a fresh code. */
export function setPassword(body: { Otp: string; NewPassword: string }) {
  return apiRequest<{ message: string }>('/api/users/me/password/set', {
    method: 'POST',
    json: body,
    auth: true,
    errors: {
      messages: {
        [API_ERROR_CODES.invalidCode]: 'accounts:set-password.invalid-code',
        [CODE_LOCKED_ERROR]: 'accounts:messages.code-locked',
        [API_ERROR_CODES.passwordExists]: 'accounts:set-password.exists',
        429: 'errors.too-many-requests',
        other: 'accounts:set-password.failed',
      },
    },
  });
}

/** Sets it, then reads the profile again (it now says the account has a password). */
export function useSetPassword() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: setPassword, onSuccess: () => queryClient.invalidateQueries() });
}
