import type { Deps } from '@tunes/server/deps';
import { QPAY_DOCUMENTED_PAYMENT_STATUSES } from '@tunes/server/modules/providers/qpay-contract';
import { z } from 'zod';
import { orderFaults, takeFault } from '../fault-store.js';
import './tables.js';

/** The merchant-API calls a fault can be ordered for; `*` is any of them. */
export const QPAY_CALLS = [
  'token',
  'refresh',
  'invoice',
  'payment-check',
  'payment-list',
  'refund',
  '*',
] as const;
export type QpayCall = (typeof QPAY_CALLS)[number];

/**
 * What a test orders of the QPay sandbox (`POST /sandbox-qpay/test/faults`), so the adapter meets
 * every branch the real QPay can take: the next `count` calls of `call` (`*`: any) answer `kind`
 * (`unavailable` 503 as a proxy in front of a down QPay, `error` 500 INTERNAL_ERROR, `slow` only
 * the delay) after `delayMs`; and `nextApproval` records the next bank-app approval in a
 * documented payment status: PARTIAL (part paid, `amount` or half the invoice), NEW (begun, not
 * finished), FAILED, REFUND (paid and given back) or PAID. Only PAID closes the QPay invoice.
 */
export const qpayFaultsRequest = z.strictObject({
  call: z.enum(QPAY_CALLS).default('*'),
  count: z.number().int().min(0).max(100).default(0),
  kind: z.enum(['unavailable', 'error', 'slow']).default('unavailable'),
  delayMs: z.number().int().min(0).max(15_000).default(0),
  nextApproval: z
    .strictObject({
      status: z.enum(QPAY_DOCUMENTED_PAYMENT_STATUSES),
      amount: z.number().int().positive().optional(),
    })
    .optional(),
});
export type QpayFaultsRequest = z.infer<typeof qpayFaultsRequest>;

export interface ApprovalOutcome {
  status: (typeof QPAY_DOCUMENTED_PAYMENT_STATUSES)[number];
  amount?: number | null | undefined;
}

/** Stores a test's order: each part replaces what was ordered before for its call. */
export async function orderQpayFaults(deps: Pick<Deps, 'db'>, order: QpayFaultsRequest): Promise<void> {
  await orderFaults(deps, 'sandbox_qpay_faults', order);
  if (order.nextApproval) {
    const approval = { status: order.nextApproval.status, amount: order.nextApproval.amount ?? null };
    await deps.db
      .insertInto('sandbox_qpay_faults')
      .values({ call: 'approval', remaining: 1, kind: 'slow', delay_ms: 0, ...approval })
      .onConflict((oc) => oc.column('call').doUpdateSet({ remaining: 1, ...approval }))
      .execute();
  }
}

/** Takes one fault ordered for `call`, else one ordered for any call (fault-store.ts). */
export function takeQpayFault(deps: Pick<Deps, 'db'>, call: Exclude<QpayCall, '*'>) {
  return takeFault<QpayFaultsRequest['kind']>(deps, 'sandbox_qpay_faults', call);
}

/** The ordered outcome of the next approval (taken once), or a plain PAID. */
export async function takeApprovalOutcome(deps: Pick<Deps, 'db'>): Promise<ApprovalOutcome> {
  const taken = await deps.db
    .updateTable('sandbox_qpay_faults')
    .set({ remaining: 0 })
    .where('call', '=', 'approval')
    .where('remaining', '>', 0)
    .returning(['status', 'amount'])
    .executeTakeFirst();
  return taken?.status ? { status: taken.status, amount: taken.amount } : { status: 'PAID' };
}
