import { type Kysely, sql } from 'kysely';

/**
 * Vouchers made on the command line (`npm run admin -- vouchers:create`) belong to a batch too,
 * so the console lists them (issue 36): a batch's maker may be no operator (`created_by` null:
 * the command line) and its codes may never expire (`expires_at` null, as `--expires` is
 * optional). Codes made before without a batch get one per run (same plan, days, expiry and time).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table voucher_batches alter column created_by drop not null`.execute(db);
  await sql`alter table voucher_batches alter column expires_at drop not null`.execute(db);
  await sql`
    insert into voucher_batches (package_id, days, count, expires_at, note, created_by, created_at)
    select package_id, days, count(*), expires_at, null, null, created_at
    from vouchers where batch_id is null
    group by package_id, days, expires_at, created_at`.execute(db);
  await sql`
    update vouchers v set batch_id = b.id
    from voucher_batches b
    where v.batch_id is null and b.created_by is null and b.package_id = v.package_id
      and b.days = v.days and b.expires_at is not distinct from v.expires_at
      and b.created_at = v.created_at`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`update vouchers set batch_id = null where batch_id in
    (select id from voucher_batches where created_by is null)`.execute(db);
  await sql`delete from voucher_batches where created_by is null`.execute(db);
  await sql`alter table voucher_batches alter column expires_at set not null`.execute(db);
  await sql`alter table voucher_batches alter column created_by set not null`.execute(db);
}
