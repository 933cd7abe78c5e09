import type { Kysely } from 'kysely';

/** Wrong voucher codes are counted by the throttle now (lib/limits.ts `voucherTriesPerUser`). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('voucher_lockouts').ifExists().execute();
  await db.schema.dropTable('voucher_failures').ifExists().execute();
}

export async function down(): Promise<void> {}
