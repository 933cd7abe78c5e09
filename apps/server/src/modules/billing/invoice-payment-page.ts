import { callbackUrl, returnUrl } from '../premium/checkout.js';
import { GatewayError } from '../providers/exchange.js';
import type { RenewalDeps } from './renewal-claim.js';
import '../premium/tables.js';

/**
 * The gateway page where an invoice is paid by hand (the reminder's link for a
 * subscriber without a saved card, "pay now" after a failed charge). Opened once per invoice.
 */
export async function invoicePaymentPage(deps: RenewalDeps, invoiceId: string): Promise<string> {
  const invoice = await deps.db
    .selectFrom('payment_invoices as i')
    .innerJoin('packages as p', 'p.id', 'i.package_id')
    .innerJoin('users as u', 'u.id', 'i.user_id')
    .select([
      'i.invoice_id',
      'i.provider_token',
      'i.amount',
      'p.name_en',
      'u.phone_number',
      'u.primary_email',
    ])
    .where('i.invoice_id', '=', invoiceId)
    .executeTakeFirstOrThrow();
  if (invoice.provider_token) return deps.paymentGateway.paymentPageUrl(invoice.provider_token);
  const storedToken = async () =>
    (
      await deps.db
        .selectFrom('payment_invoices')
        .select('provider_token')
        .where('invoice_id', '=', invoiceId)
        .executeTakeFirstOrThrow()
    ).provider_token;
  const exchange = await deps.paymentGateway
    .requestToken({
      amount: invoice.amount,
      description: invoice.name_en,
      invoice_id: invoice.invoice_id,
      redirect_url: returnUrl(deps.config.PUBLIC_URL, invoice.invoice_id),
      callback_url: callbackUrl(deps.config.PUBLIC_URL),
      ...(invoice.phone_number ? { phone: invoice.phone_number } : {}),
      ...(invoice.primary_email ? { email: invoice.primary_email } : {}),
    })
    .catch(async (error: unknown) => {
      // Tabs asking at once: the gateway opens one session per invoice and refuses the others
      // (`duplicate_invoice`); they answer the page of the one that was opened, once it is stored.
      const code =
        error instanceof GatewayError ? (error.response as { error?: unknown } | null)?.error : null;
      if (code !== 'duplicate_invoice') throw error;
      for (let wait = 0; wait < 20; wait++) {
        const token = await storedToken();
        if (token) return { result: { token } };
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw error;
    });
  // Two callers at once: the first token stored wins and both answer it.
  await deps.db
    .updateTable('payment_invoices')
    .set({ provider_token: exchange.result.token })
    .where('invoice_id', '=', invoiceId)
    .where('provider_token', 'is', null)
    .execute();
  return deps.paymentGateway.paymentPageUrl((await storedToken()) ?? exchange.result.token);
}

/** The site's page for paying one invoice by QPay or card (`/pay/{invoiceId}`, signed in). */
export const sitePaymentPage = (publicUrl: string, invoiceId: string) =>
  `${publicUrl}/pay/${encodeURIComponent(invoiceId)}`;
