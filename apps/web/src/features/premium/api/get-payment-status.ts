import { useQuery } from '@tanstack/react-query';
import type { PaymentStatusAnswer } from '@tunes/shared/billing';
import { apiRequest } from '@/lib/api-client';

/** How often a waiting page asks whether the payment has arrived. */
const POLL_MS = 3000;

/** The payment's status, and for a QPay invoice paid in part, what was taken (it stays open). */
export function getPaymentStatus(invoiceId: string): Promise<PaymentStatusAnswer> {
  return apiRequest<PaymentStatusAnswer>(`/api/payments/${encodeURIComponent(invoiceId)}`, {
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
