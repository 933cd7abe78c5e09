import type { Kysely } from 'kysely';
import type { Database, Package } from '../../db/schema.js';
import type { PlanRow } from './catalog-import.js';
import type { CatalogProblem } from './catalog-schema.js';

/**
 * Changes a plan that was sold may not take: its currency and length (renewals charge and extend
 * by them), and fewer seats than a current family already fills (the seat limit). A new price is
 * taken: it is scheduled with notice for current subscribers (prices/price-schedule.ts).
 */
export async function refusedChanges(
  db: Kysely<Database>,
  now: Date,
  current: Package,
  row: PlanRow,
  index: number,
  columns: (keyof Package)[],
): Promise<CatalogProblem[]> {
  const problems: CatalogProblem[] = [];
  const where = (field: string) => `plans[${index}].${field}`;
  if (columns.includes('currency') || columns.includes('duration_months')) {
    const subscribed = await db
      .selectFrom('subscriptions')
      .select('id')
      .where((eb) => eb.or([eb('package_id', '=', current.id), eb('next_package_id', '=', current.id)]))
      .limit(1)
      .executeTakeFirst();
    const invoiced = await db
      .selectFrom('payment_invoices')
      .select('invoice_id')
      .where('package_id', '=', current.id)
      .limit(1)
      .executeTakeFirst();
    if (subscribed || invoiced) {
      const keep = (field: string, was: unknown) =>
        problems.push({
          path: where(field),
          message: `${current.merchant_code} was sold with ${field} ${was}; renewals use it. Sell the new terms under a new code and leave this plan out (retired)`,
        });
      if (columns.includes('currency')) keep('currency', current.currency);
      if (columns.includes('duration_months')) keep('months', current.duration_months);
    }
  }
  const seatsLeft = row.max_shared_users;
  if (seatsLeft < current.max_shared_users) {
    const crowded = await db
      .selectFrom('subscriptions as s')
      .innerJoin('subscription_members as m', 'm.subscription_id', 's.id')
      .select('s.id')
      .where('s.package_id', '=', current.id)
      .where((eb) => eb.or([eb('s.end_date', '>', now), eb('s.grace_until', '>', now)]))
      .groupBy('s.id')
      .having((eb) => eb.fn.countAll(), '>', seatsLeft)
      .execute();
    if (crowded.length > 0) {
      problems.push({
        path: where('seats'),
        message: `${crowded.length} current subscription(s) of ${current.merchant_code} have more than ${seatsLeft} member(s) besides the owner; keep ${current.max_shared_users + 1} seats, or sell fewer under a new code`,
      });
    }
  }
  return problems;
}
