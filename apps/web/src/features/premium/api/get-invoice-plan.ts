import type { Plan } from '@tunes/shared/premium';
import { usePlans } from './get-plans';
import { useInvoice } from './pay-invoice';

/**
 * The plan an open invoice pays for (its MerchantCode among the merchant's plans), so a payment
 * page says what is being bought (issue 37: the QPay page showed a lone "Premium"). Undefined
 * while loading or for a plan no longer listed.
 */
export function useInvoicePlan(invoiceId: string): Plan | undefined {
  const invoice = useInvoice(invoiceId);
  const { plans } = usePlans();
  const code = invoice.data?.MerchantCode;
  return code ? plans.find((plan) => plan.MerchantCode === code) : undefined;
}
