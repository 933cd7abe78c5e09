/** `GET /api/admin/dashboard` (docs/console-api.md §5). */
export interface Dashboard {
  days: number;
  from: string;
  to: string;
  activeByPlan: { packageCode: string; packageName: string; count: number }[];
  daily: { date: string; new: number; lapsed: number }[];
  revenue: { date: string; method: string; currency: string; amount: number }[];
}
