import { type Kysely, sql } from 'kysely';

/**
 * Billing lifecycle (product.md §12): cards kept for renewals (the gateway's token only), the
 * renewal state of each subscription, invoices that say what they pay for and carry the key that
 * makes a charge happen once, the outbox's delivery retries, and the sandbox gateway's saved
 * cards and charges.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('saved_cards')
    .addColumn('user_id', 'uuid', (col) => col.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('provider_token', 'text', (col) => col.notNull())
    .addColumn('brand', 'text', (col) => col.notNull())
    .addColumn('last4', 'text', (col) => col.notNull())
    .addColumn('expires', 'text')
    .addColumn('saved_at', 'timestamptz', (col) => col.notNull())
    .execute();

  await db.schema
    .alterTable('subscriptions')
    // When the next billing step (the charge, a retry, the lapse) is due; null: nothing to bill.
    .addColumn('next_billing_at', 'timestamptz')
    .addColumn('renewal_attempts', 'integer', (col) => col.notNull().defaultTo(0))
    // Access kept past the end date while a failed renewal is tried again.
    .addColumn('grace_until', 'timestamptz')
    // The period end whose reminder went out, so each period is reminded once.
    .addColumn('reminded_for', 'timestamptz')
    // A downgrade waiting for the next renewal.
    .addColumn('next_package_id', 'integer', (col) => col.references('packages.id'))
    .execute();
  await sql`create index subscriptions_next_billing_idx on subscriptions (next_billing_at, id) where next_billing_at is not null`.execute(
    db,
  );
  await sql`create index subscriptions_reminder_idx on subscriptions (end_date, id) where next_billing_at is not null`.execute(
    db,
  );

  await db.schema
    .alterTable('payment_invoices')
    .addColumn('kind', 'text', (col) =>
      col.notNull().defaultTo('purchase').check(sql`kind in ('purchase', 'renewal', 'change')`),
    )
    .addColumn('method', 'text', (col) => col.notNull().defaultTo('card'))
    .addColumn('save_card', 'boolean', (col) => col.notNull().defaultTo(false))
    // renewal:<subscription>:<period start> or change:<subscription>:<period end>:<plan>.
    .addColumn('idempotency_key', 'text', (col) => col.unique())
    .addColumn('period_start', 'timestamptz')
    .addColumn('period_end', 'timestamptz')
    .addColumn('charge_attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('card_brand', 'text')
    .addColumn('card_last4', 'text')
    .execute();
  await db.schema
    .createIndex('payment_invoices_user_created_idx')
    .on('payment_invoices')
    .columns(['user_id', 'created_at'])
    .execute();

  // Each billing message (reminder, charged, failed, lapsed) goes out once per period.
  await db.schema
    .createTable('billing_notices')
    .addColumn('key', 'text', (col) => col.primaryKey())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .execute();

  await db.schema
    .alterTable('outbox_messages')
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'timestamptz')
    .execute();
  await sql`create index outbox_messages_retry_idx on outbox_messages (next_attempt_at) where next_attempt_at is not null`.execute(
    db,
  );

  await db.schema
    .alterTable('sandbox_gateway_payments')
    .addColumn('save_card', 'boolean', (col) => col.notNull().defaultTo(false))
    .addColumn('card_token', 'text')
    .execute();
  await db.schema
    .createTable('sandbox_gateway_cards')
    .addColumn('token', 'text', (col) => col.primaryKey())
    .addColumn('client_id', 'text', (col) => col.notNull())
    .addColumn('card_number', 'text', (col) => col.notNull())
    .addColumn('expires', 'text', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .execute();
  await db.schema
    .createTable('sandbox_gateway_charges')
    .addColumn('client_id', 'text', (col) => col.notNull())
    .addColumn('invoice_id', 'text', (col) => col.notNull())
    .addColumn('attempt', 'integer', (col) => col.notNull())
    .addColumn('card_token', 'text', (col) => col.notNull())
    .addColumn('amount', 'integer', (col) => col.notNull())
    .addColumn('currency', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .addPrimaryKeyConstraint('sandbox_gateway_charges_pk', ['client_id', 'invoice_id', 'attempt'])
    .execute();
  // The gateway never takes two payments for one invoice.
  await sql`create unique index sandbox_gateway_charges_paid_uq on sandbox_gateway_charges (client_id, invoice_id) where status = 'paid'`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sandbox_gateway_charges').execute();
  await db.schema.dropTable('sandbox_gateway_cards').execute();
  await db.schema
    .alterTable('sandbox_gateway_payments')
    .dropColumn('save_card')
    .dropColumn('card_token')
    .execute();
  await db.schema
    .alterTable('outbox_messages')
    .dropColumn('attempts')
    .dropColumn('next_attempt_at')
    .execute();
  await db.schema.dropTable('billing_notices').execute();
  for (const column of [
    'kind',
    'method',
    'save_card',
    'idempotency_key',
    'period_start',
    'period_end',
    'charge_attempts',
    'card_brand',
    'card_last4',
  ]) {
    await db.schema.alterTable('payment_invoices').dropColumn(column).execute();
  }
  for (const column of [
    'next_billing_at',
    'renewal_attempts',
    'grace_until',
    'reminded_for',
    'next_package_id',
  ]) {
    await db.schema.alterTable('subscriptions').dropColumn(column).execute();
  }
  await db.schema.dropTable('saved_cards').execute();
}
