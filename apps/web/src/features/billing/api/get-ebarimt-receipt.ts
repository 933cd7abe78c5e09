import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Company, Receipt } from '@tunes/shared/billing';
import { API_ERROR_CODES } from '@tunes/shared/error-codes';
import { apiRequest } from '@/lib/api-client';

/** How often a page asks again while the e-barimt is being issued. */
const POLL_MS = 3000;

const receiptPath = (invoiceId: string) => `/api/users/me/receipts/${encodeURIComponent(invoiceId)}`;
export const ebarimtReceiptKey = (invoiceId: string) => ['ebarimt-receipt', invoiceId] as const;

/**
 * A paid invoice's receipt, for its e-barimt: asked again every 3 s while the e-barimt (or a
 * company one asked for) is being issued by the server's job queue.
 */
export function useEbarimtReceipt(invoiceId: string) {
  return useQuery({
    queryKey: ebarimtReceiptKey(invoiceId),
    queryFn: () =>
      apiRequest<Receipt>(receiptPath(invoiceId), {
        auth: true,
        errors: { messages: { other: 'ebarimt:load-failed' } },
      }),
    refetchInterval: (query) => {
      const receipt = query.state.data;
      if (query.state.error) return false;
      return !receipt?.receipt?.ebarimt || receipt.companyReceipt.status === 'pending' ? POLL_MS : false;
    },
    retry: 3,
  });
}

/** Asks for the e-barimt to be issued to a company instead (`…/company-receipt`). */
export function useRequestCompanyReceipt(invoiceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (registry: string) =>
      apiRequest<{ status: 'pending'; company: Company }>(`${receiptPath(invoiceId)}/company-receipt`, {
        method: 'POST',
        json: { registry },
        auth: true,
        errors: {
          messages: {
            [API_ERROR_CODES.unknownCompany]: 'ebarimt:company-unknown',
            [API_ERROR_CODES.companyReceiptExists]: 'ebarimt:company-exists',
            other: 'ebarimt:company-failed',
          },
        },
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ebarimtReceiptKey(invoiceId) }),
  });
}
