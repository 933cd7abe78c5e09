import { PaymentFailed } from '@/features/premium/components/payment-result';

/** /failed: the payment cancelled notice (spec §2). */
export default function FailedRoute() {
  return <PaymentFailed />;
}
