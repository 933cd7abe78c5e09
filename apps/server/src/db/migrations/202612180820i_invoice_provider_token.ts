import { type Kysely, sql } from 'kysely';

/**
 * The provider's token is unique where an invoice has one: the same rule as the UNIQUE constraint
 * (NULLs never clash), as a partial index that only holds tokens. The payment link's and the
 * lapse's updates find an invoice by its id and `provider_token is null`; with the constraint's
 * index PostgreSQL could take that test through it and walk every invoice without a token (every
 * renewal by card), which it did when its statistics still said there were none: 453 million
 * index entries read in a day of 100,000 renewals (docs/performance.md). This index cannot answer
 * `is null`, so they go by the invoice's id.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table payment_invoices drop constraint payment_invoices_provider_token_key`.execute(db);
  await sql`create unique index payment_invoices_provider_token_key on payment_invoices (provider_token)
    where provider_token is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index payment_invoices_provider_token_key`.execute(db);
  await sql`alter table payment_invoices add constraint payment_invoices_provider_token_key
    unique (provider_token)`.execute(db);
}
