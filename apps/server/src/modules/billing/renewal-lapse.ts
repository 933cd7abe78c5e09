import type { ErrorLog } from '../../lib/logging.js';
import { notifyOnce } from '../premium/notices.js';
import { billingMessages } from './messages.js';
import { planName, type RenewalDeps, type RenewalFacts } from './renewal-claim.js';
import '../premium/tables.js';

/** The renewal was not paid: auto-renew off, access ends, the subscriber is told once. */
export async function lapse(deps: RenewalDeps, facts: RenewalFacts, invoiceId: string, log?: ErrorLog) {
  const now = deps.clock.now();
  await deps.db
    .updateTable('subscriptions')
    .set({
      is_auto_renew: false,
      next_billing_at: null,
      grace_until: null,
      renewal_attempts: 0,
      next_package_id: null,
      updated_at: now,
    })
    .where('id', '=', facts.id)
    .execute();
  await deps.db
    .updateTable('payment_invoices')
    .set({ status: 'failed', settled_at: now })
    .where('invoice_id', '=', invoiceId)
    .where('status', '=', 'created')
    .where('provider_token', 'is', null)
    // A QPay invoice stays open until it expires, so the check cancels it at QPay first.
    .where((eb) =>
      eb.not(
        eb.exists(
          eb.selectFrom('qpay_invoices as q').select('q.invoice_id').where('q.invoice_id', '=', invoiceId),
        ),
      ),
    )
    .execute();
  const link = `${deps.config.PUBLIC_URL}/premium`;
  await notifyOnce(
    deps,
    {
      key: `lapsed:${facts.id}:${facts.end_date.toISOString()}`,
      userId: facts.owner_id,
      link,
      text: (lang) => billingMessages.lapsed(lang, planName(facts, lang), link),
    },
    log,
  );
}
