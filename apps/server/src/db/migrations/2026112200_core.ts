import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('username', 'text', (col) => col.notNull().unique())
    .addColumn('first_name', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('last_name', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('display_name', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('primary_email', 'text', (col) => col.unique())
    .addColumn('phone_number', 'text', (col) => col.unique())
    .addColumn('country_code', 'integer')
    .addColumn('iso2_country_code', 'text')
    .addColumn('password_hash', 'text')
    .addColumn('is_public', 'boolean', (col) => col.notNull().defaultTo(false))
    .addColumn('language', 'text', (col) => col.notNull().defaultTo('en'))
    .addColumn('birth_year', 'integer')
    .addColumn('gender', 'text')
    .addColumn('opted_in', 'boolean', (col) => col.notNull().defaultTo(false))
    .addColumn('audio_quality', 'text', (col) => col.notNull().defaultTo('normal'))
    .addColumn('is_verified', 'boolean', (col) => col.notNull().defaultTo(false))
    .addColumn('test_user', 'boolean', (col) => col.notNull().defaultTo(false))
    .addColumn('tags', 'jsonb', (col) => col.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('usercentrics_controller_id', 'uuid', (col) => col.notNull().defaultTo(sql`gen_random_uuid()`))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('merchants')
    .addColumn('id', 'integer', (col) => col.primaryKey())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('packages')
    .addColumn('id', 'serial', (col) => col.primaryKey())
    .addColumn('merchant_id', 'integer', (col) => col.notNull().references('merchants.id'))
    .addColumn('merchant_code', 'text', (col) => col.notNull().unique())
    .addColumn('offer', 'text', (col) => col.notNull())
    .addColumn('name_en', 'text', (col) => col.notNull())
    .addColumn('name_mn', 'text', (col) => col.notNull())
    .addColumn('description_en', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('description_mn', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('cost', 'integer', (col) => col.notNull().check(sql`cost >= 0`))
    .addColumn('original_cost', 'integer')
    .addColumn('currency', 'text', (col) => col.notNull())
    .addColumn('duration_months', 'integer', (col) => col.notNull().defaultTo(1))
    .addColumn('allow_share', 'boolean', (col) => col.notNull().defaultTo(false))
    .addColumn('max_shared_users', 'integer', (col) =>
      col.notNull().defaultTo(0).check(sql`max_shared_users >= 0`),
    )
    .addColumn('is_active', 'boolean', (col) => col.notNull().defaultTo(true))
    .addColumn('sort_order', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('packages_merchant_idx').on('packages').column('merchant_id').execute();

  await db.schema
    .createTable('subscriptions')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('owner_id', 'uuid', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('package_id', 'integer', (col) => col.notNull().references('packages.id'))
    .addColumn('start_date', 'timestamptz', (col) => col.notNull())
    .addColumn('end_date', 'timestamptz', (col) => col.notNull())
    .addColumn('is_auto_renew', 'boolean', (col) => col.notNull().defaultTo(true))
    .addColumn('source_type', 'text', (col) => col.notNull().defaultTo('Web'))
    .addColumn('invoice_id', 'text', (col) => col.unique())
    .addColumn('cancelled_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('subscriptions_owner_end_idx')
    .on('subscriptions')
    .columns(['owner_id', 'end_date'])
    .execute();

  await db.schema
    .createTable('subscription_members')
    .addColumn('subscription_id', 'uuid', (col) =>
      col.notNull().references('subscriptions.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'uuid', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('joined_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('subscription_members_pk', ['subscription_id', 'user_id'])
    .execute();
  await db.schema
    .createIndex('subscription_members_user_idx')
    .on('subscription_members')
    .column('user_id')
    .execute();

  await db.schema
    .createTable('demo_seeds')
    .addColumn('name', 'text', (col) => col.primaryKey())
    .addColumn('applied_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'demo_seeds',
    'subscription_members',
    'subscriptions',
    'packages',
    'merchants',
    'users',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
