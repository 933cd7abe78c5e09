import type { CaptureDeps } from './capture-once.js';
import { recordVoid } from './ledger.js';
import './tables.js';

/** An invoice's attempts still open at a provider: the card page (true), the QPay invoice (its id). */
export interface OpenAttempts {
  currency: string;
  card: boolean;
  qpay: string | null;
}

/** An invoice's attempts still open at a provider: a card page not voided, a QPay invoice not cancelled. */
export async function openAttempts(db: CaptureDeps['db'], invoiceId: string): Promise<OpenAttempts | null> {
  const invoice = await db
    .selectFrom('payment_invoices as i')
    .leftJoin('qpay_invoices as q', 'q.invoice_id', 'i.invoice_id')
    .select(['i.currency', 'i.provider_token', 'i.card_voided_at', 'q.qpay_invoice_id', 'q.cancelled_at'])
    .where('i.invoice_id', '=', invoiceId)
    .executeTakeFirst();
  if (!invoice) return null;
  const cardOpen = invoice.provider_token !== null && invoice.card_voided_at === null;
  const qpayOpen = invoice.qpay_invoice_id !== null && invoice.cancelled_at === null;
  if (!cardOpen && !qpayOpen) return { currency: invoice.currency, card: false, qpay: null };
  // An attempt that captured is finished, not open.
  const captures = await db
    .selectFrom('payment_ledger')
    .select(['method', 'reference'])
    .where('invoice_id', '=', invoiceId)
    .where('entry', '=', 'capture')
    .execute();
  const captured = (method: string, reference?: string) =>
    captures.some((c) => c.method === method && (reference === undefined || c.reference === reference));
  return {
    currency: invoice.currency,
    card: cardOpen && !captured('card', 'session'),
    qpay: qpayOpen && !captured('qpay') ? invoice.qpay_invoice_id : null,
  };
}

/** Records that the invoice's card page was voided, once. */
export async function markCardVoided(
  deps: Pick<CaptureDeps, 'db' | 'clock'>,
  invoiceId: string,
  currency: string,
) {
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    await trx
      .updateTable('payment_invoices')
      .set({ card_voided_at: now })
      .where('invoice_id', '=', invoiceId)
      .where('card_voided_at', 'is', null)
      .execute();
    await recordVoid(trx, { invoiceId, method: 'card', reference: 'session', currency, now });
  });
}
