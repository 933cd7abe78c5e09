/** `GET /api/admin/dashboard` (docs/console-api.md §5). */
export interface Dashboard {
  days: number;
  from: string;
  to: string;
  activeByPlan: { packageCode: string; packageName: string; count: number }[];
  daily: { date: string; new: number; lapsed: number }[];
  revenue: { date: string; method: string; currency: string; amount: number }[];
  /** Captured less refunded in the period, by plan and by offer (issue 38). */
  revenueByPlan?: { MerchantCode: string; name: string; amount: number }[];
  revenueByOffer?: { code: string; amount: number; redemptions: number }[];
  /** First-time trials begun, converted (first renewal paid) and cancelled in the period. */
  trials?: { started: number; converted: number; cancelled: number };
}
