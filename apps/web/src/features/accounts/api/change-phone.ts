import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CHANGE_ERRORS, CODE_LOCKED_ERROR } from '@tunes/shared/account-codes';
import type { PhoneChange } from '@tunes/shared/accounts';
import { dialCodeOfMsisdn } from '@tunes/shared/phone-rules';
import type { Profile } from '@tunes/shared/profile';
import { apiRequest } from '@/lib/api-client';
import { profileQueryKey } from '@/lib/auth';
import { readSession, writeSession } from '@/lib/session';

/**
 * `POST /api/users/me/phone`: a code goes to the new number, which waits as `PendingPhone`
 * until confirmed; the current number withdraws the change (security.md).
 */
export function requestPhoneChange(change: PhoneChange): Promise<Profile> {
  return apiRequest<Profile>('/api/users/me/phone', {
    method: 'POST',
    json: change,
    auth: true,
    errors: { messages: { 429: 'accounts:change.wait', other: 'accounts:change.failed' } },
  });
}

/** `POST /api/users/me/phone/confirm`: the code sent to the new number makes it the account's. */
export function confirmPhoneChange(otp: string): Promise<Profile> {
  return apiRequest<Profile>('/api/users/me/phone/confirm', {
    method: 'POST',
    json: { Otp: otp },
    auth: true,
    errors: {
      messages: {
        [CHANGE_ERRORS.invalidCode]: 'accounts:change.invalid-code',
        [CODE_LOCKED_ERROR]: 'accounts:messages.code-locked',
        [CHANGE_ERRORS.noPendingChange]: 'accounts:change.no-pending',
        [CHANGE_ERRORS.phoneInUse]: 'accounts:change.phone-taken',
        429: 'errors.too-many-requests',
        other: 'accounts:change.failed',
      },
    },
  });
}

/** `DELETE /api/users/me/phone/pending`: the account keeps its number; the code stops counting. */
export function withdrawPhoneChange(): Promise<Profile> {
  return apiRequest<Profile>('/api/users/me/phone/pending', {
    method: 'DELETE',
    auth: true,
    errors: { messages: { other: 'accounts:change.failed' } },
  });
}

/** The session cookie names the number it signed in with (product.md §3); it follows the change. */
function rememberNumber(profile: Profile) {
  const session = readSession();
  const msisdn = profile.PhoneNumber;
  if (!session?.phone || !msisdn) return;
  const oldMsisdn = `${session.phone.countryCode}${session.phone.number}`;
  const countryCode = dialCodeOfMsisdn(msisdn) ?? session.phone.countryCode;
  writeSession({
    ...session,
    phone: { number: msisdn.slice(String(countryCode).length), countryCode },
    username: session.username === oldMsisdn ? msisdn : session.username,
  });
}

export function useRequestPhoneChange() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: requestPhoneChange,
    onSuccess: (profile) => queryClient.setQueryData(profileQueryKey(profile.UserId), profile),
  });
}

export function useConfirmPhoneChange() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: confirmPhoneChange,
    onSuccess: (profile) => {
      rememberNumber(profile);
      queryClient.setQueryData(profileQueryKey(profile.UserId), profile);
    },
  });
}

export function useWithdrawPhoneChange() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: withdrawPhoneChange,
    onSuccess: (profile) => queryClient.setQueryData(profileQueryKey(profile.UserId), profile),
  });
}
