import { type Kysely, sql } from 'kysely';

/**
 * Faults the tests order from the sandboxes, as the real services can answer them: the PosAPI
 * stand-in's ordered receipt failures get a kind (an outage, a documented `ERROR` or `PAYMENT`
 * answer, or only slow) and a delay; the card gateway stand-in gets faults of its own, per call.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('sandbox_ebarimt_outages')
    .addColumn('kind', 'text', (col) => col.notNull().defaultTo('unavailable'))
    .addColumn('delay_ms', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('sandbox_gateway_faults')
    // A provider call (`token`, `check-payment`, …) or `*` for any.
    .addColumn('call', 'text', (col) => col.primaryKey())
    .addColumn('remaining', 'integer', (col) => col.notNull())
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('delay_ms', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sandbox_gateway_faults').execute();
  await sql`alter table sandbox_ebarimt_outages drop column kind, drop column delay_ms`.execute(db);
}
