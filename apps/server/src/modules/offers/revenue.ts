import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.js';
import './tables.js';

/**
 * The console dashboard's revenue by plan and by offer for [from, until) (issue 38), from the
 * ledger: each capture that paid an invoice in the range, less what was refunded of it. An
 * offer's `redemptions` are its purchases paid in the range.
 */
export async function revenueByPlanAndOffer(db: Kysely<Database>, from: Date, until: Date) {
  const paid = sql`
    select i.package_id, i.offer_redemption_id, i.kind,
      c.amount - coalesce((
        select sum(r.amount) from payment_ledger r where r.refund_of = c.id and r.entry = 'refund'
      ), 0) as net
    from payment_ledger c join payment_invoices i on i.invoice_id = c.invoice_id
    where c.entry = 'capture' and c.outcome = 'applied'
      and c.created_at >= ${from} and c.created_at < ${until}`;
  const [plans, offers] = await Promise.all([
    sql<{ merchant_code: string; name_en: string; amount: string }>`
      with paid as (${paid})
      select p.merchant_code, p.name_en, sum(paid.net) as amount
      from paid join packages p on p.id = paid.package_id
      group by p.merchant_code, p.name_en order by p.merchant_code`.execute(db),
    sql<{ code: string; amount: string; redemptions: string }>`
      with paid as (${paid})
      select o.code, sum(paid.net) as amount,
        count(*) filter (where paid.kind = 'purchase') as redemptions
      from paid join offer_redemptions r on r.id = paid.offer_redemption_id
        join offers o on o.id = r.offer_id
      group by o.code order by o.code`.execute(db),
  ]);
  return {
    revenueByPlan: plans.rows.map((row) => ({
      MerchantCode: row.merchant_code,
      name: row.name_en,
      amount: Number(row.amount),
    })),
    revenueByOffer: offers.rows.map((row) => ({
      code: row.code,
      amount: Number(row.amount),
      redemptions: Number(row.redemptions),
    })),
  };
}
