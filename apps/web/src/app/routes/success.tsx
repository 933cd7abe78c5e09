import { Redirect, useSearch } from 'wouter';
import { EbarimtReceipt } from '@/features/billing/components/ebarimt-receipt';
import { PaymentSuccess } from '@/features/premium/components/payment-result';
import { useSession } from '@/lib/auth';

/**
 * /success: the subscription-active confirmation and the payment's e-barimt (its lottery number
 * and QR once issued); visitors go to / (product.md §2).
 */
export default function SuccessRoute() {
  const session = useSession();
  const invoiceId = new URLSearchParams(useSearch()).get('invoiceId');
  if (!session) return <Redirect to="/" replace />;
  return (
    <>
      <PaymentSuccess />
      {invoiceId && (
        <div className="page page--narrow">
          <EbarimtReceipt invoiceId={invoiceId} />
        </div>
      )}
    </>
  );
}
