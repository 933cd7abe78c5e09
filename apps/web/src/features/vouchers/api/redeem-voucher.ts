import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type RedeemedVoucher, VOUCHER_ERRORS } from '@tunes/shared/vouchers';
import { ApiError, apiRequest } from '@/lib/api-client';

export function redeemVoucher(code: string): Promise<RedeemedVoucher> {
  return apiRequest<RedeemedVoucher>('/api/users/redeemvoucher', {
    method: 'POST',
    query: { code },
    auth: true,
  });
}

export type VoucherErrorKey = 'invalid' | 'already-subscribed' | 'locked' | 'failed';

/** The translation key of the message for a refused voucher (product.md §8). */
export function voucherErrorKey(error: unknown): VoucherErrorKey {
  if (!(error instanceof ApiError)) return 'failed';
  if (error.status === 429) return 'locked';
  if (error.code === VOUCHER_ERRORS.alreadySubscribed) return 'already-subscribed';
  if (error.status === 400) return 'invalid';
  return 'failed';
}

/** Redeems a voucher; the profile then shows the new subscription. */
export function useRedeemVoucher() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: redeemVoucher,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['profile'] }),
  });
}
