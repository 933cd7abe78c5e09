import type { Plan } from '@tunes/shared/premium';

type PlanFacts = Pick<Plan, 'Cost' | 'DurationMonths' | 'AllowShare' | 'MaxSharedUsers'>;

/** A plan's price per month, so plans of different lengths compare (as the server compares them). */
export const monthlyCost = (plan: Pick<Plan, 'Cost' | 'DurationMonths'>) =>
  plan.Cost / Math.max(1, plan.DurationMonths);

/** People a plan holds, its owner included. */
export const seatsOf = (plan: Pick<Plan, 'AllowShare' | 'MaxSharedUsers'>) =>
  (plan.AllowShare ? plan.MaxSharedUsers : 0) + 1;

/**
 * What choosing `target` instead of `current` does (product.md §12): a dearer plan per month is
 * an upgrade, now, for the prorated difference; any other is a downgrade at the next renewal.
 * Without the current plan among those for sale, the server decides; the site calls it an upgrade.
 */
export function planChangeKind(current: PlanFacts | undefined, target: PlanFacts): 'upgrade' | 'downgrade' {
  return !current || monthlyCost(target) > monthlyCost(current) ? 'upgrade' : 'downgrade';
}
