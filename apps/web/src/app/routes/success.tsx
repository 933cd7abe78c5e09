import { Redirect, useSearchParams } from 'wouter';
import { EbarimtReceipt } from '@/features/billing/components/ebarimt-receipt';
import { PaymentSuccess } from '@/features/premium/components/payment-result';
import { useSession } from '@/lib/auth';

/**
 * /success?invoiceId=…: what the payment did, read from the invoice, and its e-barimt (lottery
 * number and QR once issued); visitors go to / (product.md §2).
 */
export default function SuccessRoute() {
  const session = useSession();
  const [params] = useSearchParams();
  const invoiceId = params.get('invoiceId')?.trim() ?? '';
  if (!session) return <Redirect to="/" replace />;
  return (
    <>
      <PaymentSuccess invoiceId={invoiceId} />
      {invoiceId && (
        <div className="page page--narrow">
          <EbarimtReceipt invoiceId={invoiceId} />
        </div>
      )}
    </>
  );
}
