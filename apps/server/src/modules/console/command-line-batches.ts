import type { CreateVouchersInput } from '@tunes/shared/vouchers';
import type { Deps } from '../../deps.js';
import { createVouchers } from '../vouchers/voucher-codes.js';
import './tables.js';

/**
 * Vouchers made on the command line (`npm run admin -- vouchers:create`) as a batch of their
 * own, so the console's list shows them (issue 36) and an admin can download or revoke them
 * there: made by no operator (`created_by` null), in one transaction with their codes. The
 * command line is no operator, so it writes no audit entry; its output is the operator's record.
 */
export async function createCommandLineBatch(
  deps: Pick<Deps, 'db' | 'clock'>,
  input: CreateVouchersInput & { note?: string | undefined },
): Promise<{ batchId: string; codes: string[]; packageName: string; expiresAt: Date | null }> {
  const now = deps.clock.now();
  return deps.db.transaction().execute(async (trx) => {
    const pkg = await trx
      .selectFrom('packages')
      .select('id')
      .where('merchant_code', '=', input.package)
      .executeTakeFirst();
    // Unknown package: createVouchers names the error; nothing is written.
    if (!pkg) return { batchId: '', ...(await createVouchers({ db: trx, clock: deps.clock }, input)) };
    const batch = await trx
      .insertInto('voucher_batches')
      .values({
        package_id: pkg.id,
        days: input.days,
        count: input.count,
        expires_at: input.expiresAt ? new Date(input.expiresAt) : null,
        note: input.note || null,
        created_by: null,
        created_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const made = await createVouchers({ db: trx, clock: deps.clock }, input, batch.id);
    if (made.codes.length !== input.count) {
      await trx
        .updateTable('voucher_batches')
        .set({ count: made.codes.length })
        .where('id', '=', batch.id)
        .execute();
    }
    return { batchId: batch.id, ...made };
  });
}
