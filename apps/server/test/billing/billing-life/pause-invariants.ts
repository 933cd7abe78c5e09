import { addMonths } from '../../../src/modules/premium/period.js';
import type { Books } from './snapshot.js';
import type { World } from './world.js';

/**
 * The invariants of a pause and of renewals by QPay link (issue 37), and what the world notes
 * after each step for them: which pauses were in force until when, and who renews by link since
 * when. Each answers its violations as sentences.
 */

type Pause = Books['pauses'][number];

const keyOf = (pause: Pick<Pause, 'subscription_id' | 'starts_at'>) =>
  `${pause.subscription_id}|${pause.starts_at.toISOString()}`;

/** A pause in force: scheduled, and its plan still waits for it (pause.ts `livePauses`). */
function inForce(books: Books, pause: Pause): boolean {
  const plan = books.subscriptions.find((each) => each.id === pause.subscription_id);
  return (
    pause.status === 'scheduled' &&
    plan !== undefined &&
    plan.is_auto_renew &&
    plan.end_date.getTime() === pause.starts_at.getTime() &&
    plan.next_billing_at?.getTime() === pause.resumes_at.getTime()
  );
}

/** A pause ended early by the listener: its plan is charged at that moment, and that is no breach. */
const resumedEarlyAt = (pause: Pause) =>
  pause.status === 'ended' && pause.ended_at && pause.ended_at < pause.resumes_at
    ? pause.ended_at.getTime()
    : undefined;

/**
 * 6. Pauses: a plan has one pause in force at most, of 1–3 months, resuming that many months
 * after the end of the paid period; while a pause was in force (begun, its resumption not come),
 * the plan's renewal made no invoice and no charge to the card, not even a declined one.
 * 7. A listener renewing by QPay link has no renewal charged to the card from then on.
 */
export function pauseViolations(books: Books, world: World): string[] {
  const found: string[] = [];
  const inForceBy = new Map<string, number>();
  for (const pause of books.pauses.filter((each) => inForce(books, each))) {
    inForceBy.set(pause.subscription_id, (inForceBy.get(pause.subscription_id) ?? 0) + 1);
    const resumes = addMonths(pause.starts_at, pause.months).getTime();
    if (![1, 2, 3].includes(pause.months) || pause.resumes_at.getTime() !== resumes) {
      found.push(
        `6. pause ${keyOf(pause)} of ${pause.months} months resumes ${pause.resumes_at.toISOString()}`,
      );
    }
  }
  for (const [id, count] of inForceBy)
    if (count > 1) found.push(`6. plan ${id} has ${count} pauses in force`);

  const renewals = books.invoices.filter((invoice) => invoice.kind === 'renewal');
  const chargesOf = (invoiceIds: Set<string>) =>
    books.charges.filter((charge) => invoiceIds.has(charge.invoice_id));
  for (const pause of books.pauses) {
    const until = world.pausedUntilSeen.get(keyOf(pause));
    if (until === undefined) continue;
    const from = pause.starts_at.getTime();
    const early = resumedEarlyAt(pause);
    const within = (at: Date) => at.getTime() >= from && at.getTime() <= until;
    // The one renewal an early resume makes: for a period from that moment, at that moment.
    const ofPlan = renewals.filter(
      (invoice) =>
        invoice.subscription_id === pause.subscription_id &&
        !(early !== undefined && invoice.period_start?.getTime() === early),
    );
    for (const invoice of ofPlan.filter((each) => within(each.created_at))) {
      found.push(`6. ${invoice.invoice_id}: a renewal made while ${keyOf(pause)} was in force`);
    }
    for (const charge of chargesOf(new Set(ofPlan.map((invoice) => invoice.invoice_id)))) {
      if (within(charge.created_at)) {
        found.push(
          `6. ${charge.invoice_id}: card charged (${charge.status}) at ${charge.created_at.toISOString()} while ${keyOf(pause)} was in force`,
        );
      }
    }
  }

  for (const [userId, since] of world.byLinkSince) {
    const theirs = new Set(renewals.filter((each) => each.user_id === userId).map((each) => each.invoice_id));
    for (const charge of chargesOf(theirs)) {
      if (charge.created_at.getTime() > since) {
        found.push(
          `7. ${charge.invoice_id}: a renewal of ${userId}, who renews by QPay link, charged to the card (${charge.status})`,
        );
      }
    }
  }
  return found;
}

/** After a step's checks: the pauses in force now, and who renews by link now (and since when). */
export function observePausesAndMethods(books: Books, world: World) {
  const now = books.now.getTime();
  for (const pause of books.pauses) {
    if (inForce(books, pause) && pause.starts_at.getTime() <= now && now < pause.resumes_at.getTime()) {
      world.pausedUntilSeen.set(keyOf(pause), now);
    }
  }
  const byLink = new Set(
    books.renewalMethods.filter((row) => row.method === 'qpay').map((row) => row.user_id),
  );
  for (const userId of world.byLinkSince.keys()) if (!byLink.has(userId)) world.byLinkSince.delete(userId);
  for (const userId of byLink) if (!world.byLinkSince.has(userId)) world.byLinkSince.set(userId, now);
}

/**
 * Where a plan's paid periods may leave a gap (3, periods): a pause that began at `end` and has
 * ended, so the next period starts at its resumption, or where the listener resumed early.
 */
export function resumptionsAfter(books: Books, subscriptionId: string, end: Date): number[] {
  return books.pauses
    .filter(
      (pause) =>
        pause.subscription_id === subscriptionId &&
        pause.status === 'ended' &&
        pause.starts_at.getTime() === end.getTime(),
    )
    .flatMap((pause) => {
      const early = resumedEarlyAt(pause);
      return early === undefined ? [pause.resumes_at.getTime()] : [early];
    });
}
