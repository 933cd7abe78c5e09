import { type Kysely, sql } from 'kysely';

/**
 * Offers (issue 38, docs/decisions/0044-offers.md): an offer's terms and its count of held
 * redemptions (`redeemed`, never above the limit: one conditional UPDATE takes a place), each
 * listener's redemption (reserved by a purchase invoice, active once it is paid, released when
 * it fails or expires), and on each invoice the redemption it was priced with and the discount.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table offers (
      id uuid primary key default gen_random_uuid(),
      code text not null unique,
      kind text not null check (kind in ('percent', 'amount')),
      value integer not null check (value > 0 and (kind = 'amount' or value < 100)),
      periods integer not null check (periods between 1 and 12),
      audience text not null check (audience in ('new', 'returning', 'any')),
      package_ids integer[],
      max_redemptions integer not null check (max_redemptions > 0),
      redeemed integer not null default 0 check (redeemed >= 0 and redeemed <= max_redemptions),
      ends_at timestamptz not null,
      ended_at timestamptz,
      created_by uuid,
      created_at timestamptz not null
    )`.execute(db);
  await sql`
    create table offer_redemptions (
      id uuid primary key default gen_random_uuid(),
      offer_id uuid not null references offers (id),
      user_id uuid not null,
      invoice_id text not null unique,
      status text not null check (status in ('reserved', 'active', 'released')),
      subscription_id uuid,
      periods_used integer not null default 0,
      discounted_until timestamptz,
      created_at timestamptz not null,
      settled_at timestamptz
    )`.execute(db);
  // One redemption per account and offer; a released one (an invoice never paid) does not count.
  await sql`
    create unique index offer_redemptions_one_per_account
    on offer_redemptions (offer_id, user_id) where status <> 'released'`.execute(db);
  await sql`
    create index offer_redemptions_subscription
    on offer_redemptions (subscription_id) where status = 'active'`.execute(db);
  await sql`alter table payment_invoices add column offer_redemption_id uuid`.execute(db);
  await sql`alter table payment_invoices add column discount integer not null default 0`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table payment_invoices drop column discount`.execute(db);
  await sql`alter table payment_invoices drop column offer_redemption_id`.execute(db);
  await sql`drop table offer_redemptions`.execute(db);
  await sql`drop table offers`.execute(db);
}
