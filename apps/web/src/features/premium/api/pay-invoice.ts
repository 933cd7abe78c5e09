import { useMutation, useQuery } from '@tanstack/react-query';
import type { PayInvoiceResponse, PaymentMethod, QpayCheckout } from '@tunes/shared/billing';
import { API_ERROR_CODES } from '@tunes/shared/error-codes';
import type { Invoice } from '@tunes/shared/premium';
import { PAYMENT_GATEWAY_ERROR_CODE } from '@tunes/shared/premium-rules';
import { apiRequest } from '@/lib/api-client';

const invoicePath = (invoiceId: string) => `/api/payments/${encodeURIComponent(invoiceId)}`;

/** Pays one of the listener's open invoices by card (the gateway page) or QPay (QR and bank links). */
export function payInvoice(invoiceId: string, method: PaymentMethod): Promise<PayInvoiceResponse> {
  return apiRequest<PayInvoiceResponse>(`${invoicePath(invoiceId)}/pay`, {
    method: 'POST',
    json: { method },
    auth: true,
    errors: {
      messages: {
        [API_ERROR_CODES.invoiceClosed]: 'premium:pay-invoice.closed',
        [PAYMENT_GATEWAY_ERROR_CODE]: 'premium:qpay.start-failed',
        [API_ERROR_CODES.qpayUnavailable]: 'premium:qpay.unavailable',
        other: 'premium:qpay.load-failed',
      },
    },
  });
}

export const qpayPaymentKey = (invoiceId: string) => ['qpay-payment', invoiceId] as const;

/**
 * The QPay payment of an invoice: what the checkout answered, or after a reload the same QR
 * again from the server (it keeps the QPay invoice it opened).
 */
export function useQpayPayment(invoiceId: string) {
  return useQuery({
    queryKey: qpayPaymentKey(invoiceId),
    queryFn: async () => (await payInvoice(invoiceId, 'qpay')) as QpayCheckout,
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
}

/** Paying by card leaves for the gateway page. */
export function usePayInvoiceByCard() {
  return useMutation({
    mutationFn: (invoiceId: string) => payInvoice(invoiceId, 'card'),
    onSuccess: (answer) => {
      if (answer.method === 'card') window.location.assign(answer.url);
    },
  });
}

/** An invoice's amount and state (`GET /api/payments/invoices/{invoiceId}`). */
export function useInvoice(invoiceId: string) {
  return useQuery({
    queryKey: ['invoice', invoiceId],
    queryFn: () =>
      apiRequest<Invoice>(`/api/payments/invoices/${encodeURIComponent(invoiceId)}`, {
        auth: true,
        errors: { messages: { other: 'premium:qpay.load-failed' } },
      }),
    retry: false,
  });
}
