import type { Kysely } from 'kysely';

/**
 * When a member's place on someone else's plan ended (removed by the owner, or left): their
 * profile then says their Premium ended on that day rather than that they never had it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('family_departures')
    .addColumn('user_id', 'uuid', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('subscription_id', 'uuid', (col) => col.notNull())
    .addColumn('reason', 'text', (col) => col.notNull())
    .addColumn('ended_at', 'timestamptz', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('family_departures_user_idx')
    .on('family_departures')
    .columns(['user_id', 'ended_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('family_departures').execute();
}
