import type { Deps } from '@tunes/server/deps';
import { sql } from 'kysely';
import type { SandboxGatewayFaultKind } from './tables.js';
import './tables.js';

/** The provider calls a fault can be ordered for; `*` is any of them. */
export const GATEWAY_CALLS = [
  'token',
  'check-payment',
  'charge',
  'refund',
  'void',
  'transactions',
  '*',
] as const;
export type GatewayCall = (typeof GATEWAY_CALLS)[number];

export interface GatewayFaultOrder {
  call: GatewayCall;
  count: number;
  kind: SandboxGatewayFaultKind;
  delayMs: number;
}

/** Orders the next `count` calls of `call` to answer `kind` after `delayMs` (tests). */
export async function orderGatewayFaults(deps: Pick<Deps, 'db'>, order: GatewayFaultOrder): Promise<void> {
  const row = { remaining: order.count, kind: order.kind, delay_ms: order.delayMs };
  await deps.db
    .insertInto('sandbox_gateway_faults')
    .values({ call: order.call, ...row })
    .onConflict((oc) => oc.column('call').doUpdateSet(row))
    .execute();
}

/** Takes one fault ordered for `call`, else one ordered for any call; each take is one step. */
export async function takeGatewayFault(deps: Pick<Deps, 'db'>, call: Exclude<GatewayCall, '*'>) {
  // One statement: the call's own fault, or (only when it has none) one ordered for any call. A
  // sandbox call made in a bench or a checkout pays one round trip for "no fault", not two.
  return deps.db
    .with('own', (db) =>
      db
        .updateTable('sandbox_gateway_faults')
        .set({ remaining: sql<number>`remaining - 1` })
        .where('call', '=', call)
        .where('remaining', '>', 0)
        .returning(['kind', 'delay_ms']),
    )
    .with('anything', (db) =>
      db
        .updateTable('sandbox_gateway_faults')
        .set({ remaining: sql<number>`remaining - 1` })
        .where('call', '=', '*')
        .where('remaining', '>', 0)
        .where(({ not, exists, selectFrom }) => not(exists(selectFrom('own').select('kind'))))
        .returning(['kind', 'delay_ms']),
    )
    .selectFrom('own')
    .select(['kind', 'delay_ms'])
    .unionAll((db) => db.selectFrom('anything').select(['kind', 'delay_ms']))
    .executeTakeFirst();
}
