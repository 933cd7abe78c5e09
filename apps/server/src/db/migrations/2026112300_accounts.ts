import { type Kysely, sql } from 'kysely';

/** Accounts: one-time codes, rotating refresh tokens, reset links, spent HMAC tokens, outbox. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('otp_codes')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('target', 'text', (col) => col.notNull())
    .addColumn('code_hash', 'text', (col) => col.notNull())
    .addColumn('wrong_tries', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('expires_at', 'timestamptz', (col) => col.notNull())
    .addColumn('validated_at', 'timestamptz')
    .addColumn('consumed_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('otp_codes_target_idx')
    .on('otp_codes')
    .columns(['target', 'created_at'])
    .execute();

  await db.schema
    .createTable('refresh_tokens')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('token_hash', 'text', (col) => col.notNull().unique())
    .addColumn('user_id', 'uuid', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('family_id', 'uuid', (col) => col.notNull())
    .addColumn('expires_at', 'timestamptz', (col) => col.notNull())
    .addColumn('used_at', 'timestamptz')
    .addColumn('revoked_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('refresh_tokens_family_idx').on('refresh_tokens').column('family_id').execute();
  await db.schema.createIndex('refresh_tokens_user_idx').on('refresh_tokens').column('user_id').execute();

  await db.schema
    .createTable('password_resets')
    .addColumn('token_hash', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'uuid', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('expires_at', 'timestamptz', (col) => col.notNull())
    .addColumn('used_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('spent_hmac_tokens')
    .addColumn('signature', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'uuid', (col) => col.notNull())
    .addColumn('spent_at', 'timestamptz', (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('outbox_messages')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('channel', 'text', (col) => col.notNull().check(sql`channel in ('sms', 'email')`))
    .addColumn('recipient', 'text', (col) => col.notNull())
    .addColumn('subject', 'text')
    .addColumn('text', 'text', (col) => col.notNull())
    .addColumn('code', 'text')
    .addColumn('link', 'text')
    .addColumn('delivered_at', 'timestamptz')
    .addColumn('delivery_error', 'text')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('outbox_messages_recipient_idx')
    .on('outbox_messages')
    .columns(['recipient', 'created_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'outbox_messages',
    'spent_hmac_tokens',
    'password_resets',
    'refresh_tokens',
    'otp_codes',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
