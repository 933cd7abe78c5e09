import type { Database } from '@tunes/server/db/schema';
import type { Deps } from '@tunes/server/deps';
import { notFound, ProviderRefusal } from '@tunes/server/lib/errors';
import type { Kysely } from 'kysely';
import './tables.js';

export interface SandboxRefundRequest {
  clientId: string;
  invoiceId: string;
  /** The merchant's key: the same refund asked again answers the first refund, not a second one. */
  refundId: string;
  /** Which capture: `session` (the card page's payment) or `charge:<attempt>` (a saved-card charge). */
  reference: string;
  amount: number;
  currency: string;
}

/** The capture a refund gives back, held for update so refunds of it take their turn. */
function lockCapture(trx: Kysely<Database>, refund: SandboxRefundRequest) {
  const attempt = /^charge:(\d+)$/.exec(refund.reference)?.[1];
  if (attempt) {
    return trx
      .selectFrom('sandbox_gateway_charges')
      .select(['amount', 'currency'])
      .where('client_id', '=', refund.clientId)
      .where('invoice_id', '=', refund.invoiceId)
      .where('attempt', '=', Number(attempt))
      .where('status', '=', 'paid')
      .forUpdate()
      .executeTakeFirst();
  }
  return trx
    .selectFrom('sandbox_gateway_payments')
    .select(['amount', 'currency'])
    .where('client_id', '=', refund.clientId)
    .where('invoice_id', '=', refund.invoiceId)
    .where('status', '=', 'paid')
    .forUpdate()
    .executeTakeFirst();
}

/**
 * Refunds all or part of what one capture of an invoice took, as a real gateway does: several
 * refunds of a capture up to what it took (more is 409 `amount_mismatch`; a capture that took
 * nothing, 404), each once by its `refundId`. The capture's row is locked while its refunds are
 * summed and the new one written, so refunds asked at once cannot give back more than was paid.
 */
export async function refundSandboxPayment(deps: Pick<Deps, 'db' | 'clock'>, refund: SandboxRefundRequest) {
  const answer = (row: { refund_id: string; reference: string; amount: number; currency: string }) => ({
    invoice_id: refund.invoiceId,
    refund_id: row.refund_id,
    reference: row.reference,
    status: 'refunded' as const,
    amount: row.amount,
    currency: row.currency,
  });
  return deps.db.transaction().execute(async (trx) => {
    const capture = await lockCapture(trx, refund);
    const refunds = trx
      .selectFrom('sandbox_gateway_refunds')
      .where('client_id', '=', refund.clientId)
      .where('invoice_id', '=', refund.invoiceId);
    const earlier = await refunds
      .select(['refund_id', 'reference', 'amount', 'currency'])
      .where('refund_id', '=', refund.refundId)
      .executeTakeFirst();
    if (earlier) return answer(earlier);
    if (!capture) throw notFound('Nothing was paid for this invoice and reference.');

    const { refunded } = await refunds
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount'), eb.lit(0)).as('refunded'))
      .where('reference', '=', refund.reference)
      .executeTakeFirstOrThrow();
    if (refund.currency !== capture.currency || Number(refunded) + refund.amount > capture.amount) {
      throw new ProviderRefusal(409, 'amount_mismatch', 'The refund exceeds what is left of the payment.');
    }
    const row = {
      client_id: refund.clientId,
      invoice_id: refund.invoiceId,
      refund_id: refund.refundId,
      reference: refund.reference,
      amount: refund.amount,
      currency: refund.currency,
      created_at: deps.clock.now(),
    };
    await trx.insertInto('sandbox_gateway_refunds').values(row).execute();
    return answer(row);
  });
}
