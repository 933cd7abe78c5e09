import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CHANGE_ERRORS, CODE_LOCKED_ERROR } from '@tunes/shared/account-codes';
import type { Profile } from '@tunes/shared/profile';
import { apiRequest } from '@/lib/api-client';
import { profileQueryKey } from '@/lib/auth';

export type ProfileForm = Profile & { Email: string };

/** `PATCH /api/users/me/details` with the whole form state (product.md §3). */
export function updateDetails(form: ProfileForm): Promise<Profile> {
  return apiRequest<Profile>('/api/users/me/details', {
    method: 'PATCH',
    json: form,
    auth: true,
    errors: {
      messages: {
        409: 'accounts:edit.email-taken',
        429: 'accounts:edit.resend-wait',
        other: 'accounts:edit.failed',
      },
    },
  });
}

export function useUpdateDetails() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateDetails,
    onSuccess: (profile) => queryClient.setQueryData(profileQueryKey(profile.UserId), profile),
    // product.md §8: profile edit failures are logged; the form also tells the user.
    onError: (error) => console.error('profile edit failed', error),
  });
}

/** `POST /api/users/me/email/confirm`: the code sent to the new address makes it the profile's. */
export function confirmEmailChange(otp: string): Promise<Profile> {
  return apiRequest<Profile>('/api/users/me/email/confirm', {
    method: 'POST',
    json: { Otp: otp },
    auth: true,
    errors: {
      messages: {
        [CHANGE_ERRORS.invalidCode]: 'accounts:change.invalid-code',
        [CODE_LOCKED_ERROR]: 'accounts:messages.code-locked',
        [CHANGE_ERRORS.noPendingChange]: 'accounts:change.no-pending',
        [CHANGE_ERRORS.emailInUse]: 'accounts:change.email-taken',
        429: 'errors.too-many-requests',
        other: 'accounts:change.failed',
      },
    },
  });
}

export function useConfirmEmailChange() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: confirmEmailChange,
    onSuccess: (profile) => queryClient.setQueryData(profileQueryKey(profile.UserId), profile),
  });
}
