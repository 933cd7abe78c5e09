import { useMutation } from '@tanstack/react-query';
import { CODE_LOCKED_ERROR } from '@tunes/shared/account-codes';
import { API_ERROR_CODES } from '@tunes/shared/error-codes';
import { apiRequest } from '@/lib/api-client';
import { endSignedInState } from '@/lib/auth';

/** The fresh proof `DELETE /api/users/me` asks for: a code sent to the account, or its password. */
export type DeletionProof = { Otp: string } | { Password: string };

/** `DELETE /api/users/me` (product.md §14); on success this browser is signed out too. */
export async function deleteAccount(proof: DeletionProof): Promise<void> {
  await apiRequest<null>('/api/users/me', {
    method: 'DELETE',
    json: proof,
    auth: true,
    errors: {
      messages: {
        [API_ERROR_CODES.wrongPassword]: 'accounts:delete.wrong-password',
        [API_ERROR_CODES.invalidCode]: 'accounts:delete.invalid-code',
        [CODE_LOCKED_ERROR]: 'accounts:messages.code-locked',
        429: 'errors.too-many-requests',
        other: 'accounts:delete.failed',
      },
    },
  });
  endSignedInState();
}

export function useDeleteAccount() {
  return useMutation({ mutationFn: deleteAccount });
}
