import { sql } from 'kysely';

/**
 * Set-based generator of listeners for the growth benchmark: users `from`..`to` (one SQL
 * statement per table, `generate_series`), every third user owning an active subscription
 * (Family, Duo and Premium in turn), Family owners with two members and a live invitation code,
 * Duo owners with one member. Ids are derived from the ordinal, so the same user exists at
 * every size and the benchmark can address it.
 */

/** A version-4-shaped UUID derived from a label and an ordinal (md5, with the version and variant set). */
const uuidOf = (label, ordinal) =>
  sql`(overlay(overlay(md5(${sql.lit(label)} || (${ordinal})::text) placing '4' from 13 for 1) placing '8' from 17 for 1))::uuid`;

/** Reads back the id the SQL derivation gives, to address a generated user from the benchmark. */
async function benchUuidFromDb(db, label, ordinal) {
  const { rows } = await sql`select ${uuidOf(label, sql.lit(ordinal))} as id`.execute(db);
  return rows[0].id;
}

const g = sql.ref('g');

export async function generateUsers(db, { from, to, now = new Date() }) {
  const range = sql`generate_series(${sql.lit(from)}::int, ${sql.lit(to)}::int) as s(g)`;
  const plans = await db
    .selectFrom('packages')
    .select(['id', 'merchant_code'])
    .where('merchant_code', 'in', ['PREMIUM_1M', 'PREMIUM_DUO_1M', 'PREMIUM_FAMILY_1M'])
    .execute();
  const plan = Object.fromEntries(plans.map((row) => [row.merchant_code, row.id]));
  if (Object.keys(plan).length !== 3) throw new Error('The Premium plans are not seeded.');
  const start = new Date(now.getTime() - 10 * 86_400_000);
  const end = new Date(now.getTime() + 20 * 86_400_000);

  await sql`
    insert into users (id, username, phone_number, country_code, first_name, last_name)
    select ${uuidOf('bench-user-', g)}, '9769' || lpad(g::text, 7, '0'), '9769' || lpad(g::text, 7, '0'),
           976, 'Listener', g::text
    from ${range}`.execute(db);

  await sql`
    insert into subscriptions (id, owner_id, package_id, start_date, end_date, is_auto_renew, source_type)
    select ${uuidOf('bench-sub-', g)}, ${uuidOf('bench-user-', g)},
           case (g / 3) % 3 when 0 then ${plan.PREMIUM_FAMILY_1M}::int when 1 then ${plan.PREMIUM_DUO_1M}::int
                else ${plan.PREMIUM_1M}::int end,
           ${start}, ${end}, true, 'Web'
    from ${range} where g % 3 = 0`.execute(db);

  await sql`
    insert into subscription_members (subscription_id, user_id)
    select ${uuidOf('bench-sub-', g)}, ${uuidOf('bench-user-', sql`g + 1`)}
    from ${range} where g % 3 = 0 and (g / 3) % 3 in (0, 1) and g + 1 <= ${sql.lit(to)}
    union all
    select ${uuidOf('bench-sub-', g)}, ${uuidOf('bench-user-', sql`g + 2`)}
    from ${range} where g % 3 = 0 and (g / 3) % 3 = 0 and g + 2 <= ${sql.lit(to)}`.execute(db);

  const { rows } = await sql`select to_regclass('invitation_codes') is not null as present`.execute(db);
  if (rows[0]?.present) {
    await sql`
      insert into invitation_codes (code, subscription_id, created_at, expires_at)
      select md5('bench-code-' || g::text), ${uuidOf('bench-sub-', g)}, ${now},
             ${new Date(now.getTime() + 5 * 86_400_000)}
      from ${range} where g % 3 = 0 and (g / 3) % 3 = 0`.execute(db);
  }
  await sql`analyze`.execute(db);
}

/** The id of generated user `ordinal` and of the subscription it owns (if it owns one). */
export async function benchIds(db, ordinal) {
  return {
    userId: await benchUuidFromDb(db, 'bench-user-', ordinal),
    subscriptionId: await benchUuidFromDb(db, 'bench-sub-', ordinal),
  };
}

/** How many users, subscriptions and members the database holds. */
export async function countRows(db) {
  const { rows } = await sql`
    select (select count(*) from users)::int as users,
           (select count(*) from subscriptions)::int as subscriptions,
           (select count(*) from subscription_members)::int as members`.execute(db);
  return rows[0];
}
