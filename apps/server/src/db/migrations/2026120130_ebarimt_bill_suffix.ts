import { type Kysely, sql } from 'kysely';

/**
 * PosAPI asks that a bill id's suffix is unique within a day. It was a 6-digit hash of the
 * invoice and kind, so with ~1,000 receipts a day two would share one about 40 % of days. Now a
 * receipt takes the next number of a cycling sequence when it is first claimed, and keeps it for
 * its retries: unique within any day of fewer than a million receipts.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create sequence ebarimt_bill_suffix_seq minvalue 0 maxvalue 999999 start 0 cycle`.execute(db);
  await db.schema.alterTable('ebarimt_receipts').addColumn('bill_suffix', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('ebarimt_receipts').dropColumn('bill_suffix').execute();
  await sql`drop sequence ebarimt_bill_suffix_seq`.execute(db);
}
