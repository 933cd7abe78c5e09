import { useMutation, useQueryClient } from '@tanstack/react-query';
import { VOUCHER_ERRORS } from '@tunes/shared/voucher-codes';
import type { RedeemedVoucher } from '@tunes/shared/vouchers';
import { apiRequest } from '@/lib/api-client';

/** Redeems a voucher; a refusal reads the product.md §8 text ('Voucher is not valid.', …). */
export function redeemVoucher(code: string): Promise<RedeemedVoucher> {
  return apiRequest<RedeemedVoucher>('/api/users/redeemvoucher', {
    method: 'POST',
    query: { code },
    auth: true,
    errors: {
      messages: {
        [VOUCHER_ERRORS.alreadySubscribed]: 'vouchers:already-subscribed',
        429: 'vouchers:locked',
        400: 'vouchers:invalid',
        other: 'vouchers:failed',
      },
    },
  });
}

/** Redeems a voucher; the profile then shows the new subscription. */
export function useRedeemVoucher() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: redeemVoucher,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['profile'] }),
  });
}
