import { Redirect } from 'wouter';
import { PaymentSuccess } from '@/features/premium/components/payment-result';
import { useSession } from '@/lib/auth';

/** /success: the subscription-active confirmation; visitors go to / (product.md §2). */
export default function SuccessRoute() {
  const session = useSession();
  if (!session) return <Redirect to="/" replace />;
  return <PaymentSuccess />;
}
