import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import '../premium/tables.js';
import '../offers/tables.js';
import './tables.js';

/**
 * The names of what the audit log's entries acted on (docs/console-api.md §6): a listener by
 * name and e-mail or phone, a subscription or payment by its listener and plan, an operator by
 * e-mail, a voucher batch by its plan and note, a plan by its name. The ids stay in the entry;
 * a target since removed (or of no name) has none.
 */

interface Entry {
  targetType: string;
  targetId: string | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function person(user: {
  first_name: string;
  last_name: string;
  primary_email: string | null;
  phone_number: string | null;
  username: string;
}): string {
  const name = `${user.first_name} ${user.last_name}`.trim();
  const contact = user.primary_email ?? user.phone_number ?? user.username;
  return name ? `${name} (${contact})` : contact;
}

const ids = (entries: Entry[], type: string, uuid = true) => [
  ...new Set(
    entries
      .filter((entry) => entry.targetType === type && entry.targetId && (!uuid || UUID.test(entry.targetId)))
      .map((entry) => entry.targetId as string),
  ),
];

const PERSON = ['u.first_name', 'u.last_name', 'u.primary_email', 'u.phone_number', 'u.username'] as const;

/** The entries with `targetName` (null when it has none). */
export async function withTargetNames<E extends Entry>(
  db: Kysely<Database>,
  entries: E[],
): Promise<(E & { targetName: string | null })[]> {
  const names = new Map<string, string>();
  const key = (type: string, id: string) => `${type}:${id}`;
  const users = ids(entries, 'user');
  const subscriptions = ids(entries, 'subscription');
  const payments = ids(entries, 'payment', false);
  const operators = ids(entries, 'operator');
  const batches = ids(entries, 'voucher_batch');
  const plans = ids(entries, 'plan', false);
  const [userRows, subscriptionRows, paymentRows, operatorRows, batchRows, planRows] = await Promise.all([
    users.length
      ? db
          .selectFrom('users as u')
          .select(['u.id', ...PERSON])
          .where('u.id', 'in', users)
          .execute()
      : [],
    subscriptions.length
      ? db
          .selectFrom('subscriptions as s')
          .innerJoin('users as u', 'u.id', 's.owner_id')
          .innerJoin('packages as p', 'p.id', 's.package_id')
          .select(['s.id', 'p.name_en', ...PERSON])
          .where('s.id', 'in', subscriptions)
          .execute()
      : [],
    payments.length
      ? db
          .selectFrom('payment_invoices as i')
          .innerJoin('users as u', 'u.id', 'i.user_id')
          .innerJoin('packages as p', 'p.id', 'i.package_id')
          .select(['i.invoice_id as id', 'p.name_en', ...PERSON])
          .where('i.invoice_id', 'in', payments)
          .execute()
      : [],
    operators.length
      ? db.selectFrom('operators').select(['id', 'email']).where('id', 'in', operators).execute()
      : [],
    batches.length
      ? db
          .selectFrom('voucher_batches as b')
          .innerJoin('packages as p', 'p.id', 'b.package_id')
          .select(['b.id', 'p.name_en', 'b.note'])
          .where('b.id', 'in', batches)
          .execute()
      : [],
    plans.length
      ? db
          .selectFrom('packages')
          .select(['merchant_code', 'name_en'])
          .where('merchant_code', 'in', plans)
          .execute()
      : [],
  ]);
  for (const row of userRows) names.set(key('user', row.id), person(row));
  for (const row of subscriptionRows)
    names.set(key('subscription', row.id), `${person(row)} · ${row.name_en}`);
  for (const row of paymentRows) names.set(key('payment', row.id), `${person(row)} · ${row.name_en}`);
  for (const row of operatorRows) names.set(key('operator', row.id), row.email);
  for (const row of batchRows)
    names.set(key('voucher_batch', row.id), row.note ? `${row.name_en} · ${row.note}` : row.name_en);
  for (const row of planRows) names.set(key('plan', row.merchant_code), row.name_en);
  // An offer by its code (modules/offers).
  const offers = ids(entries, 'offer');
  if (offers.length) {
    const rows = await db.selectFrom('offers').select(['id', 'code']).where('id', 'in', offers).execute();
    for (const row of rows) names.set(key('offer', row.id), row.code);
  }
  return entries.map((entry) => ({
    ...entry,
    targetName: entry.targetId ? (names.get(key(entry.targetType, entry.targetId)) ?? null) : null,
  }));
}
