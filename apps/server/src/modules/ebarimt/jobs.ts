import type { JobKind } from '../../lib/job-queue.js';
import type { EbarimtDeps } from './receipt-calls.js';
import { dueReceipts, runReceiptStep } from './receipt-once.js';

/**
 * The e-barimt work on the job queue (product.md §12): every paid invoice's receipt, issued once
 * and retried until the tax authority takes it; a company receipt that replaces a citizen one.
 */
export function ebarimtJobKind(deps: EbarimtDeps): JobKind {
  return {
    name: 'ebarimt.issue',
    findDue: (now, limit, after) => dueReceipts(deps, now, limit, after),
    run: (key, log) => runReceiptStep(deps, key, log),
  };
}
