import { useQuery } from '@tanstack/react-query';
import type { PaymentEntry } from '@tunes/shared/billing';
import { apiRequest } from '@/lib/api-client';
import { useSession } from '@/lib/auth';

export function getPayments(): Promise<PaymentEntry[]> {
  return apiRequest<PaymentEntry[]>('/api/users/me/payments', { auth: true });
}

/** The signed-in listener's payments, newest first (product.md §12). */
export function usePayments() {
  const session = useSession();
  return useQuery({
    queryKey: ['payments', session?.sub ?? ''],
    queryFn: getPayments,
    enabled: Boolean(session),
  });
}
