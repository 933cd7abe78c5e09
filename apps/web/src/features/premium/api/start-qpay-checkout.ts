import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CheckoutRequest, QpayCheckout } from '@tunes/shared/billing';
import { API_ERROR_CODES } from '@tunes/shared/error-codes';
import { ALREADY_SUBSCRIBED_CODE, PAYMENT_GATEWAY_ERROR_CODE } from '@tunes/shared/premium-rules';
import { apiRequest } from '@/lib/api-client';
import { qpayPaymentKey } from './pay-invoice';
import { OFFER_CHECKOUT_MESSAGES } from './start-checkout';

export interface QpayChoice {
  merchantCode: string;
  /** A company's registry number for a company e-barimt. */
  ebarimtRegistry?: string | undefined;
  /** An offer code the listener applied (issue 38). */
  offerCode?: string | undefined;
}

/** Starts a QPay payment for a plan: its QR and bank-app links (product.md §12). */
export function startQpayCheckout({
  merchantCode,
  ebarimtRegistry,
  offerCode,
}: QpayChoice): Promise<QpayCheckout> {
  const body: CheckoutRequest = {
    MerchantCode: merchantCode,
    method: 'qpay',
    ...(ebarimtRegistry ? { ebarimtRegistry } : {}),
    ...(offerCode ? { OfferCode: offerCode } : {}),
  };
  return apiRequest<QpayCheckout>('/api/payments/checkout', {
    method: 'POST',
    json: body,
    auth: true,
    errors: {
      messages: {
        [ALREADY_SUBSCRIBED_CODE]: 'premium:checkout.already-subscribed',
        [PAYMENT_GATEWAY_ERROR_CODE]: 'premium:qpay.start-failed',
        [API_ERROR_CODES.unknownCompany]: 'premium:qpay.unknown-company',
        [API_ERROR_CODES.qpayUnavailable]: 'premium:qpay.unavailable',
        ...OFFER_CHECKOUT_MESSAGES,
        other: 'premium:checkout.failed',
      },
      toast: 'message',
    },
  });
}

/** The QPay checkout; its answer is kept as the invoice's QPay payment, so the page shows it at once. */
export function useStartQpayCheckout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: startQpayCheckout,
    onSuccess: (answer) => queryClient.setQueryData(qpayPaymentKey(answer.invoiceId), answer),
    onError: (error) => console.error('QPay checkout failed', error),
  });
}
