import { type Kysely, sql } from 'kysely';

/** Invitation codes of shared plans, vouchers, voucher guess lockouts, coupon-service calls. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('invitation_codes')
    .addColumn('code', 'text', (col) => col.primaryKey())
    .addColumn('subscription_id', 'uuid', (col) =>
      col.notNull().references('subscriptions.id').onDelete('cascade'),
    )
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .addColumn('expires_at', 'timestamptz', (col) => col.notNull())
    .addColumn('used_by', 'uuid', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('used_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('invitation_codes_subscription_idx')
    .on('invitation_codes')
    .columns(['subscription_id', 'expires_at'])
    .execute();

  await db.schema
    .createTable('vouchers')
    .addColumn('code', 'text', (col) => col.primaryKey())
    .addColumn('package_id', 'integer', (col) => col.notNull().references('packages.id'))
    .addColumn('days', 'integer', (col) => col.notNull().check(sql`days > 0`))
    .addColumn('expires_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('redeemed_by', 'uuid', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('redeemed_at', 'timestamptz')
    .addColumn('subscription_id', 'uuid', (col) => col.references('subscriptions.id').onDelete('set null'))
    .execute();

  await db.schema
    .createTable('voucher_failures')
    .addColumn('id', 'serial', (col) => col.primaryKey())
    .addColumn('user_id', 'uuid', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('failed_at', 'timestamptz', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('voucher_failures_user_idx')
    .on('voucher_failures')
    .columns(['user_id', 'failed_at'])
    .execute();

  await db.schema
    .createTable('voucher_lockouts')
    .addColumn('user_id', 'uuid', (col) => col.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('locked_until', 'timestamptz', (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('coupon_notifications')
    .addColumn('id', 'serial', (col) => col.primaryKey())
    .addColumn('msisdn', 'text', (col) => col.notNull())
    .addColumn('coupon_code', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'coupon_notifications',
    'voucher_lockouts',
    'voucher_failures',
    'vouchers',
    'invitation_codes',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
