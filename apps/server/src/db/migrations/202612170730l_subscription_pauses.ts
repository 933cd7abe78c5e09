import { type Kysely, sql } from 'kysely';

/**
 * Premium paused for 1–3 months (billing/pause.ts): the pause starts at the end of the paid
 * period and the renewal moves to `resumes_at`. One pause per period start of a subscription.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('subscription_pauses')
    .addColumn('subscription_id', 'uuid', (col) =>
      col.notNull().references('subscriptions.id').onDelete('cascade'),
    )
    .addColumn('starts_at', 'timestamptz', (col) => col.notNull())
    .addColumn('resumes_at', 'timestamptz', (col) => col.notNull())
    .addColumn('months', 'integer', (col) => col.notNull().check(sql`months between 1 and 3`))
    .addColumn('status', 'text', (col) =>
      col.notNull().defaultTo('scheduled').check(sql`status in ('scheduled', 'ended', 'withdrawn')`),
    )
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .addColumn('ended_at', 'timestamptz')
    // When the message before the resumption went out (once).
    .addColumn('reminded_at', 'timestamptz')
    .addPrimaryKeyConstraint('subscription_pauses_pkey', ['subscription_id', 'starts_at'])
    .execute();
  await sql`create index subscription_pauses_due_idx on subscription_pauses (resumes_at) where status = 'scheduled'`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('subscription_pauses').execute();
}
