import { useQuery } from '@tanstack/react-query';
import { MERCHANT_ID } from '@tunes/shared/constants';
import { plansForSale } from '@tunes/shared/premium-rules';
import { plansQuery } from '@/lib/plans';

/** The plans one can change to: the MNT plans /premium sells, from the same query. */
export function usePlanChoices(enabled: boolean) {
  const plans = useQuery({ ...plansQuery(MERCHANT_ID), enabled });
  return { ...plans, data: plans.data ? plansForSale(plans.data) : undefined };
}
