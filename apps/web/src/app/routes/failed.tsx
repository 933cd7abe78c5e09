import { useSearchParams } from 'wouter';
import { PaymentFailed, PaymentOutcomeFailed } from '@/features/premium/components/payment-result';
import { useSession } from '@/lib/auth';

/**
 * /failed: the payment cancelled notice (product.md §2); with a signed-in listener's invoice in
 * the address, what became of it (a payment that arrived too late was given back).
 */
export default function FailedRoute() {
  const session = useSession();
  const [params] = useSearchParams();
  const invoiceId = params.get('invoiceId')?.trim() ?? '';
  if (!session || !invoiceId) return <PaymentFailed />;
  return <PaymentOutcomeFailed invoiceId={invoiceId} />;
}
