import { useQuery } from '@tanstack/react-query';
import type { Receipt } from '@tunes/shared/billing';
import { apiRequest } from '@/lib/api-client';
import { useSession } from '@/lib/auth';

export function getReceipt(invoiceId: string): Promise<Receipt> {
  return apiRequest<Receipt>(`/api/users/me/payments/${encodeURIComponent(invoiceId)}`, {
    auth: true,
    errors: { messages: { 404: 'billing:receipt.not-found', other: 'billing:receipt.failed' } },
  });
}

/** One paid invoice as its printable receipt shows it. */
export function useReceipt(invoiceId: string) {
  const session = useSession();
  return useQuery({
    queryKey: ['receipt', session?.sub ?? '', invoiceId],
    queryFn: () => getReceipt(invoiceId),
    enabled: Boolean(session) && invoiceId !== '',
    staleTime: Number.POSITIVE_INFINITY,
  });
}
