import { useQuery } from '@tanstack/react-query';
import type { PaymentStatus } from '@tunes/shared/billing';
import { apiRequest } from '@/lib/api-client';

/** How often a waiting page asks whether the payment has arrived. */
const POLL_MS = 3000;

export function getPaymentStatus(invoiceId: string): Promise<{ status: PaymentStatus }> {
  return apiRequest<{ status: PaymentStatus }>(`/api/payments/${encodeURIComponent(invoiceId)}`, {
    auth: true,
  });
}

/** A payment in progress, asked again every 3 s until it is paid, failed or expired. */
export function usePaymentStatus(invoiceId: string) {
  return useQuery({
    queryKey: ['payment-status', invoiceId],
    queryFn: () => getPaymentStatus(invoiceId),
    refetchInterval: (query) =>
      query.state.data?.status === 'pending' || !query.state.data ? POLL_MS : false,
    refetchIntervalInBackground: true,
    retry: 2,
  });
}
