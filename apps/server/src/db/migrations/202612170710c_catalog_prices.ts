import { type Kysely, sql } from 'kysely';

/**
 * Plans run from the console (modules/catalog/plans-admin.ts) and a price change with notice
 * (modules/prices): a plan's badge in both languages; every price change of a plan; and one
 * notice per current subscription it reaches, which keeps that subscription's price until its
 * first renewal at least 30 days after the change and records when it was told.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('packages')
    .addColumn('badge_en', 'text')
    .addColumn('badge_mn', 'text')
    .execute();
  await db.schema
    .createTable('plan_price_changes')
    .addColumn('id', 'bigserial', (col) => col.primaryKey())
    .addColumn('package_id', 'integer', (col) => col.notNull().references('packages.id'))
    .addColumn('previous_cost', 'integer', (col) => col.notNull())
    .addColumn('cost', 'integer', (col) => col.notNull())
    .addColumn('changed_at', 'timestamptz', (col) => col.notNull())
    .addColumn('takes_effect_at', 'timestamptz', (col) => col.notNull())
    .addColumn('operator_id', 'uuid')
    .execute();
  await db.schema
    .createIndex('plan_price_changes_package_idx')
    .on('plan_price_changes')
    .columns(['package_id', 'changed_at'])
    .execute();
  await db.schema
    .createTable('price_notices')
    .addColumn('subscription_id', 'uuid', (col) =>
      col.notNull().references('subscriptions.id').onDelete('cascade'),
    )
    .addColumn('price_change_id', 'bigint', (col) => col.notNull().references('plan_price_changes.id'))
    .addColumn('package_id', 'integer', (col) => col.notNull().references('packages.id'))
    .addColumn('previous_cost', 'integer', (col) => col.notNull())
    .addColumn('cost', 'integer', (col) => col.notNull())
    .addColumn('takes_effect_at', 'timestamptz', (col) => col.notNull())
    .addColumn('told_at', 'timestamptz')
    .addColumn('reminded_at', 'timestamptz')
    .addPrimaryKeyConstraint('price_notices_pk', ['subscription_id', 'price_change_id'])
    .execute();
  await db.schema
    .createIndex('price_notices_subscription_idx')
    .on('price_notices')
    .columns(['subscription_id', 'package_id', 'takes_effect_at'])
    .execute();
  await sql`create index price_notices_untold_idx on price_notices (price_change_id, subscription_id) where told_at is null`.execute(
    db,
  );
  await sql`create index price_notices_unreminded_idx on price_notices (takes_effect_at) where reminded_at is null`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('price_notices').execute();
  await db.schema.dropTable('plan_price_changes').execute();
  await db.schema.alterTable('packages').dropColumn('badge_en').dropColumn('badge_mn').execute();
}
