import { type Kysely, sql } from 'kysely';

/**
 * The operator console (docs/console-api.md): operators, their set-up links and sessions, the
 * audit log, the content draft and uploaded images, voucher batches, refunds, and the Mongolian
 * texts of cards and reels (card titles gain `title_mn`; reels keep `descriptionMn` in their JSON).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('operators')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('email', 'text', (col) => col.notNull().unique())
    .addColumn('role', 'text', (col) => col.notNull().check(sql`role in ('admin', 'support', 'content')`))
    .addColumn('password_hash', 'text')
    .addColumn('totp_secret', 'text')
    /** The TOTP time step of the last code accepted: a code of that step or earlier is refused. */
    .addColumn('totp_last_step', 'bigint')
    .addColumn('disabled_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .addColumn('last_sign_in_at', 'timestamptz')
    .execute();

  await db.schema
    .createTable('operator_setup_links')
    .addColumn('token_hash', 'text', (col) => col.primaryKey())
    .addColumn('operator_id', 'uuid', (col) => col.notNull().references('operators.id').onDelete('cascade'))
    .addColumn('expires_at', 'timestamptz', (col) => col.notNull())
    .addColumn('used_at', 'timestamptz')
    .addColumn('pending_totp_secret', 'text')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('operator_setup_links_operator_idx')
    .on('operator_setup_links')
    .column('operator_id')
    .execute();

  await db.schema
    .createTable('operator_sessions')
    .addColumn('token_hash', 'text', (col) => col.primaryKey())
    .addColumn('operator_id', 'uuid', (col) => col.notNull().references('operators.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .addColumn('last_seen_at', 'timestamptz', (col) => col.notNull())
    .addColumn('expires_at', 'timestamptz', (col) => col.notNull())
    .addColumn('ended_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('operator_sessions_operator_idx')
    .on('operator_sessions')
    .column('operator_id')
    .execute();

  await db.schema
    .createTable('operator_audit')
    .addColumn('id', 'bigserial', (col) => col.primaryKey())
    .addColumn('operator_id', 'uuid', (col) => col.notNull().references('operators.id'))
    .addColumn('action', 'text', (col) => col.notNull())
    .addColumn('target_type', 'text', (col) => col.notNull())
    .addColumn('target_id', 'text')
    .addColumn('before', 'jsonb')
    .addColumn('after', 'jsonb')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('operator_audit_target_idx').on('operator_audit').column('target_id').execute();
  await db.schema
    .createIndex('operator_audit_operator_idx')
    .on('operator_audit')
    .columns(['operator_id', 'id'])
    .execute();

  await db.schema
    .createTable('content_drafts')
    .addColumn('id', 'smallint', (col) => col.primaryKey().check(sql`id = 1`))
    .addColumn('document', 'jsonb', (col) => col.notNull())
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('content_images')
    .addColumn('file', 'text', (col) => col.primaryKey())
    .addColumn('content_type', 'text', (col) => col.notNull())
    .addColumn('body', 'bytea', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .execute();

  await db.schema.alterTable('content_cards').addColumn('title_mn', 'text').execute();
  await db.schema.alterTable('content_state').addColumn('published_at', 'timestamptz').execute();

  await db.schema
    .createTable('voucher_batches')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('package_id', 'integer', (col) => col.notNull().references('packages.id'))
    .addColumn('days', 'integer', (col) => col.notNull())
    .addColumn('count', 'integer', (col) => col.notNull())
    .addColumn('expires_at', 'timestamptz', (col) => col.notNull())
    .addColumn('note', 'text')
    .addColumn('created_by', 'uuid', (col) => col.notNull().references('operators.id'))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .execute();
  await db.schema
    .alterTable('vouchers')
    .addColumn('batch_id', 'uuid', (col) => col.references('voucher_batches.id'))
    .addColumn('revoked_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('vouchers_batch_idx').on('vouchers').column('batch_id').execute();

  await db.schema
    .createTable('payment_refunds')
    // One refund per payment: the primary key decides between refunds asked at once.
    .addColumn('invoice_id', 'text', (col) => col.primaryKey().references('payment_invoices.invoice_id'))
    .addColumn('amount', 'integer', (col) => col.notNull())
    .addColumn('currency', 'text', (col) => col.notNull())
    .addColumn('reason', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull().check(sql`status in ('pending', 'done')`))
    .addColumn('operator_id', 'uuid', (col) => col.notNull().references('operators.id'))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .addColumn('refunded_at', 'timestamptz')
    .execute();

  await db.schema
    .createTable('sandbox_gateway_refunds')
    .addColumn('client_id', 'text', (col) => col.notNull())
    .addColumn('invoice_id', 'text', (col) => col.notNull())
    .addColumn('amount', 'integer', (col) => col.notNull())
    .addColumn('currency', 'text', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .addPrimaryKeyConstraint('sandbox_gateway_refunds_pk', ['client_id', 'invoice_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sandbox_gateway_refunds').execute();
  await db.schema.dropTable('payment_refunds').execute();
  await db.schema.alterTable('vouchers').dropColumn('batch_id').dropColumn('revoked_at').execute();
  await db.schema.dropTable('voucher_batches').execute();
  await db.schema.alterTable('content_state').dropColumn('published_at').execute();
  await db.schema.alterTable('content_cards').dropColumn('title_mn').execute();
  for (const table of [
    'content_images',
    'content_drafts',
    'operator_audit',
    'operator_sessions',
    'operator_setup_links',
    'operators',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
