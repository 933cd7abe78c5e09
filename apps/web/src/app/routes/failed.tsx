import { PaymentFailed } from '@/features/premium/components/payment-result';

/** /failed: the payment cancelled notice (product.md §2). */
export default function FailedRoute() {
  return <PaymentFailed />;
}
