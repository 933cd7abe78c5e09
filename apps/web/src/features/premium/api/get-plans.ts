import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import { MERCHANT_ID } from '@tunes/shared/constants';
import type { Merchant, Plan } from '@tunes/shared/premium';
import { apiRequest } from '@/lib/api-client';
import { plansQuery } from '@/lib/plans';

export function getMerchants(): Promise<Merchant[]> {
  return apiRequest<Merchant[]>('/api/merchants');
}

const merchantsQuery = queryOptions({
  queryKey: ['merchants'],
  // product.md §8: a failed merchants load is logged (a refused session has ended in the API client).
  queryFn: () =>
    getMerchants().catch((error: unknown) => {
      console.error('merchants load failed', error);
      throw error;
    }),
  staleTime: 5 * 60_000,
});

const ourMerchant = (merchants: readonly Merchant[] | undefined) =>
  merchants?.find((candidate) => candidate.MerchantId === MERCHANT_ID);

/** Starts merchants, then its plans (product.md §7), while the premium page's code loads. */
export function prefetchPlans(client: QueryClient): void {
  client
    .fetchQuery(merchantsQuery)
    .then((merchants) => {
      const merchant = ourMerchant(merchants);
      if (merchant) return client.prefetchQuery(plansQuery(merchant.MerchantId));
    })
    // The page's own queries report the failure (and sign out on 401) when they retry.
    .catch(() => {});
}

export function useMerchants() {
  return useQuery(merchantsQuery);
}

const NO_PLANS: Plan[] = [];

/** Merchant 14's plans (product.md §7: merchants first, then its plans); every currency and offer. */
export function usePlans() {
  const merchants = useMerchants();
  const merchant = ourMerchant(merchants.data);
  const plans = useQuery(plansQuery(merchant?.MerchantId));
  return {
    merchants,
    plans: (merchant && plans.data) || NO_PLANS,
    isLoading: merchants.isPending || (Boolean(merchant) && plans.isPending),
    isError: merchants.isError || plans.isError,
  };
}
