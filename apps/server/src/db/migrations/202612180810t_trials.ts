import { type Kysely, sql } from 'kysely';

/**
 * First-time trials (docs/decisions/0045-trials.md): a plan's free days, each trial started, and
 * one claim row per account, phone number and card that had one, so a trial is given once per
 * person whatever runs at once (the claim's primary key refuses the second).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('packages')
    .addColumn('trial_days', 'integer', (col) =>
      col.notNull().defaultTo(0).check(sql`trial_days between 0 and 90`),
    )
    .execute();

  await db.schema
    .createTable('trials')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('package_id', 'integer', (col) => col.notNull().references('packages.id'))
    .addColumn('method', 'text', (col) => col.notNull().check(sql`method in ('card', 'qpay')`))
    .addColumn('status', 'text', (col) =>
      col.notNull().check(sql`status in ('pending', 'started', 'refused', 'declined', 'cancelled')`),
    )
    .addColumn('days', 'integer', (col) => col.notNull())
    // The save-card session's reference (card trials): ours, unguessable.
    .addColumn('reference', 'text', (col) => col.unique())
    // Why a card trial did not start: an API error code (trial_card_used, trial_not_eligible).
    .addColumn('refusal', 'text')
    .addColumn('subscription_id', 'uuid', (col) =>
      col.unique().references('subscriptions.id').onDelete('set null'),
    )
    .addColumn('started_at', 'timestamptz')
    .addColumn('ends_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('trials_user_idx').on('trials').columns(['user_id', 'created_at']).execute();
  await sql`create index trials_started_idx on trials (started_at) where started_at is not null`.execute(db);

  // `account:<user id>`, `number:<sha-256 of the number>`, `card:<sha-256 of brand, last 4, expiry>`.
  await db.schema
    .createTable('trial_claims')
    .addColumn('key', 'text', (col) => col.primaryKey())
    .addColumn('trial_id', 'uuid', (col) => col.notNull().references('trials.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('trial_claims_trial_idx').on('trial_claims').column('trial_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('trial_claims').execute();
  await db.schema.dropTable('trials').execute();
  await db.schema.alterTable('packages').dropColumn('trial_days').execute();
}
