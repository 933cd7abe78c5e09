import { Redirect, useParams } from 'wouter';
import { ReceiptPage } from '@/features/billing/components/receipt-page';
import { useSession } from '@/lib/auth';

/** /receipts/{invoiceId} (product.md §12): a printable receipt; visitors go to / like /profile. */
export default function ReceiptRoute() {
  const session = useSession();
  const { invoiceId = '' } = useParams<{ invoiceId?: string }>();
  if (!session) return <Redirect to="/" />;
  return <ReceiptPage invoiceId={safeDecode(invoiceId)} />;
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
