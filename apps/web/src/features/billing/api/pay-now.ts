import { useMutation } from '@tanstack/react-query';
import { API_ERROR_CODES } from '@tunes/shared/error-codes';
import { apiRequest } from '@/lib/api-client';

interface PayNow {
  url: string;
  invoiceId: string;
}

export function payNow(subscriptionId: string): Promise<PayNow> {
  return apiRequest<PayNow>(`/api/subscriptions/${encodeURIComponent(subscriptionId)}/pay-now`, {
    method: 'POST',
    auth: true,
    errors: {
      messages: {
        [API_ERROR_CODES.nothingToPay]: 'billing:failed.nothing-to-pay',
        other: 'billing:failed.pay-failed',
      },
      toast: 'message',
    },
  });
}

/** The gateway page for a renewal the saved card failed to pay; the browser goes there. */
export function usePayNow() {
  return useMutation({
    mutationFn: payNow,
    onSuccess: ({ url }) => window.location.assign(url),
    onError: (error) => console.error('pay now failed', error),
  });
}
