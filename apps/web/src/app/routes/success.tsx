import { Redirect, useSearchParams } from 'wouter';
import { PaymentSuccess } from '@/features/premium/components/payment-result';
import { useSession } from '@/lib/auth';

/**
 * /success?invoiceId=…: what the payment did, read from the invoice; visitors go to /
 * (product.md §2).
 */
export default function SuccessRoute() {
  const session = useSession();
  const [params] = useSearchParams();
  if (!session) return <Redirect to="/" replace />;
  return <PaymentSuccess invoiceId={params.get('invoiceId')?.trim() ?? ''} />;
}
