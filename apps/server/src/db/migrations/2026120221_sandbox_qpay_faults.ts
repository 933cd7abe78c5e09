import type { Kysely } from 'kysely';

/**
 * Faults the tests order from the QPay sandbox (sandbox-qpay/faults.ts), as the gateway and PosAPI
 * sandboxes keep theirs: per merchant-API call (`*`: any), the next `remaining` answer `kind` after
 * `delay_ms`; the row `approval` holds the payment status the next bank-app approval records.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sandbox_qpay_faults')
    .addColumn('call', 'text', (col) => col.primaryKey())
    .addColumn('remaining', 'integer', (col) => col.notNull())
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('delay_ms', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('status', 'text')
    .addColumn('amount', 'integer')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sandbox_qpay_faults').execute();
}
