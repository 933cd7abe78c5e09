import { useQuery } from '@tanstack/react-query';
import { MERCHANT_ID } from '@tunes/shared/constants';
import type { Merchant, Plan } from '@tunes/shared/premium';
import { apiRequest } from '@/lib/api-client';

export function getMerchants(): Promise<Merchant[]> {
  return apiRequest<Merchant[]>('/api/merchants');
}

export function getAllPlans(merchantId: number): Promise<Plan[]> {
  return apiRequest<Plan[]>('/api/packages/allplans', { query: { merchantId } });
}

export function useMerchants() {
  return useQuery({ queryKey: ['merchants'], queryFn: getMerchants, staleTime: 5 * 60_000 });
}

/** Merchant 14's plans (spec §7: merchants first, then its plans); every currency and offer. */
export function usePlans() {
  const merchants = useMerchants();
  const merchant = merchants.data?.find((candidate) => candidate.MerchantId === MERCHANT_ID);
  const plans = useQuery({
    queryKey: ['plans', merchant?.MerchantId],
    queryFn: () => getAllPlans(merchant?.MerchantId ?? MERCHANT_ID),
    enabled: Boolean(merchant),
    staleTime: 5 * 60_000,
  });
  return {
    merchants,
    plans: merchant ? (plans.data ?? []) : [],
    isLoading: merchants.isPending || (Boolean(merchant) && plans.isPending),
    isError: merchants.isError || plans.isError,
  };
}
