import { type Kysely, sql } from 'kysely';

/**
 * What the books check has to look at again (billing/books-changes.ts, decision 0039): every
 * write that can change what the check finds (an invoice's money or period, a ledger row, a
 * period's end, source or invoice) leaves a row in `books_changes`, written by the database
 * itself, so the hourly job checks what changed instead of every row, and a change made by any
 * code path (or by hand) is never left out. The job deletes the rows it has checked.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('books_changes')
    .addColumn('id', 'bigserial', (col) => col.primaryKey())
    .addColumn('invoice_id', 'text')
    .addColumn('subscription_id', 'uuid')
    .addColumn('ledger_id', 'bigint')
    .execute();

  await sql`
    create function books_invoice_changed() returns trigger language plpgsql as $$
    begin
      insert into books_changes (invoice_id, subscription_id) values (new.invoice_id, new.subscription_id);
      if tg_op = 'UPDATE' and old.subscription_id is distinct from new.subscription_id
        and old.subscription_id is not null then
        insert into books_changes (subscription_id) values (old.subscription_id);
      end if;
      return null;
    end $$`.execute(db);
  // A new invoice still open holds no money and backs no period: only its first settlement counts.
  await sql`
    create trigger books_invoice_inserted after insert on payment_invoices
    for each row when (new.status <> 'created') execute function books_invoice_changed()`.execute(db);
  await sql`
    create trigger books_invoice_updated after update on payment_invoices
    for each row when (old.status is distinct from new.status or old.amount is distinct from new.amount
      or old.kind is distinct from new.kind or old.subscription_id is distinct from new.subscription_id)
    execute function books_invoice_changed()`.execute(db);

  await sql`
    create function books_ledger_changed() returns trigger language plpgsql as $$
    begin
      if tg_op <> 'INSERT' then
        insert into books_changes (invoice_id, subscription_id, ledger_id)
        values (old.invoice_id, old.subscription_id, coalesce(old.refund_of, old.id));
      end if;
      if tg_op <> 'DELETE' then
        insert into books_changes (invoice_id, subscription_id, ledger_id)
        values (new.invoice_id, new.subscription_id, new.id);
        if new.refund_of is not null then
          insert into books_changes (ledger_id) values (new.refund_of);
        end if;
      end if;
      return null;
    end $$`.execute(db);
  await sql`
    create trigger books_ledger_changed after insert or update or delete on payment_ledger
    for each row execute function books_ledger_changed()`.execute(db);

  await sql`
    create function books_period_changed() returns trigger language plpgsql as $$
    begin
      if tg_op <> 'INSERT' and (tg_op = 'DELETE' or old.invoice_id is distinct from new.invoice_id) then
        insert into books_changes (invoice_id, subscription_id) values (old.invoice_id, old.id);
      end if;
      if tg_op <> 'DELETE' then
        insert into books_changes (invoice_id, subscription_id) values (new.invoice_id, new.id);
      end if;
      return null;
    end $$`.execute(db);
  await sql`
    create trigger books_period_inserted after insert or delete on subscriptions
    for each row execute function books_period_changed()`.execute(db);
  await sql`
    create trigger books_period_updated after update on subscriptions
    for each row when (old.end_date is distinct from new.end_date
      or old.source_type is distinct from new.source_type or old.invoice_id is distinct from new.invoice_id)
    execute function books_period_changed()`.execute(db);

  // What the check asks of one period or invoice, by index (books-ledger.ts).
  await sql`create index payment_invoices_subscription_idx on payment_invoices (subscription_id)
    where subscription_id is not null`.execute(db);
  await sql`create index payment_ledger_grant_idx on payment_ledger (subscription_id)
    where entry = 'capture' and method in ('voucher', 'extension')`.execute(db);

  // A job run that stopped at its bound leaves changes for the next scan, not the next hour; the
  // hour is counted from the run that last asked the providers (null: the run's own start).
  await sql`alter table books_checks add column changes_left boolean not null default false`.execute(db);
  await sql`alter table books_checks add column providers_asked_at timestamptz`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table books_checks drop column providers_asked_at`.execute(db);
  await sql`alter table books_checks drop column changes_left`.execute(db);
  await sql`drop index payment_ledger_grant_idx`.execute(db);
  await sql`drop index payment_invoices_subscription_idx`.execute(db);
  await sql`drop trigger books_period_updated on subscriptions`.execute(db);
  await sql`drop trigger books_period_inserted on subscriptions`.execute(db);
  await sql`drop function books_period_changed()`.execute(db);
  await sql`drop trigger books_ledger_changed on payment_ledger`.execute(db);
  await sql`drop function books_ledger_changed()`.execute(db);
  await sql`drop trigger books_invoice_updated on payment_invoices`.execute(db);
  await sql`drop trigger books_invoice_inserted on payment_invoices`.execute(db);
  await sql`drop function books_invoice_changed()`.execute(db);
  await db.schema.dropTable('books_changes').execute();
}
