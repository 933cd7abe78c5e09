import type { Deps } from '@tunes/server/deps';
import { sql } from 'kysely';

/** The sandboxes' fault tables: one row a call (`*`: any call), counting down what a test ordered. */
export type FaultTable = 'sandbox_gateway_faults' | 'sandbox_qpay_faults';

/** A test's order: the next `count` calls of `call` answer `kind` after `delayMs`. */
export interface FaultOrder<Kind extends string> {
  call: string;
  count: number;
  kind: Kind;
  delayMs: number;
}

/** Stores an order; it replaces what was ordered before for its call. */
export async function orderFaults<Kind extends string>(
  deps: Pick<Deps, 'db'>,
  table: FaultTable,
  order: FaultOrder<Kind>,
): Promise<void> {
  await sql`
    insert into ${sql.table(table)} (call, remaining, kind, delay_ms)
    values (${order.call}, ${order.count}, ${order.kind}, ${order.delayMs})
    on conflict (call) do update
      set remaining = excluded.remaining, kind = excluded.kind, delay_ms = excluded.delay_ms`.execute(
    deps.db,
  );
}

/**
 * Takes one fault ordered for `call`, else one ordered for any call; each take is one step. One
 * statement: the call's own fault, or (only when it has none) one ordered for any call, so a
 * sandbox call made in a bench or a checkout pays one round trip for "no fault", not two.
 */
export async function takeFault<Kind extends string>(
  deps: Pick<Deps, 'db'>,
  table: FaultTable,
  call: string,
): Promise<{ kind: Kind; delay_ms: number } | undefined> {
  const faults = sql.table(table);
  const { rows } = await sql<{ kind: Kind; delay_ms: number }>`
    with own as (
      update ${faults} set remaining = remaining - 1
      where call = ${call} and remaining > 0
      returning kind, delay_ms
    ), anything as (
      update ${faults} set remaining = remaining - 1
      where call = '*' and remaining > 0 and not exists (select 1 from own)
      returning kind, delay_ms
    )
    select kind, delay_ms from own union all select kind, delay_ms from anything`.execute(deps.db);
  return rows[0];
}
