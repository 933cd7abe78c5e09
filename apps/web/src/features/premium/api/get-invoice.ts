import { useQuery } from '@tanstack/react-query';
import type { Invoice } from '@tunes/shared/premium';
import { apiRequest } from '@/lib/api-client';
import { useSession } from '@/lib/auth';

/** How often /success asks again while the provider has not settled the invoice yet. */
const PENDING_POLL_MS = 3000;

/** One of the user's invoices, confirmed with the provider while it is open (product.md §10). */
export function getInvoice(invoiceId: string): Promise<Invoice> {
  return apiRequest<Invoice>(`/api/payments/invoices/${encodeURIComponent(invoiceId)}`, {
    auth: true,
    errors: {
      messages: {
        403: 'premium:success.not-found.text',
        404: 'premium:success.not-found.text',
        other: 'premium:success.check-failed',
      },
    },
  });
}

/** The invoice /success reports on; asked again every few seconds until it is settled. */
export function useInvoice(invoiceId: string) {
  const session = useSession();
  return useQuery({
    queryKey: ['invoice', session?.sub ?? '', invoiceId],
    queryFn: () => getInvoice(invoiceId),
    enabled: Boolean(session) && invoiceId !== '',
    staleTime: 0,
    refetchInterval: (query) => (query.state.data?.status === 'created' ? PENDING_POLL_MS : false),
  });
}
