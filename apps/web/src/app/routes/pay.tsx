import { useLocation } from 'wouter';
import { PayInvoicePage } from '@/features/premium/components/pay-invoice-page';

/** /pay/{invoiceId}: pay one open invoice (a renewal link) by QPay or card. */
export default function PayRoute() {
  const [location] = useLocation();
  const invoiceId = decodeURIComponent(location.split('/')[2] ?? '');
  return <PayInvoicePage invoiceId={invoiceId} />;
}
