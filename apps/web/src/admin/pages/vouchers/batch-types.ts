/** A batch as `GET /api/admin/vouchers/batches` lists it (docs/console-api.md §5). */
export interface VoucherBatch {
  id: string;
  packageCode: string;
  days: number;
  count: number;
  expiresAt: string;
  createdAt: string;
  /** The operator's e-mail; null for a batch made on the command line. */
  createdBy: string | null;
  redeemed: number;
  revoked: number;
  note: string | null;
}

export const batchesKey = ['admin', 'voucher-batches'];
