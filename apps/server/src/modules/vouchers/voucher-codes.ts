import { randomInt } from 'node:crypto';
import { type CreateVouchersInput, VOUCHER_ALPHABET } from '@tunes/shared/vouchers';
import type { Deps } from '../../deps.js';
import { badRequest, notFound } from '../../lib/errors.js';
import './tables.js';

/** `XXXX-XXXX-XXXX`: 12 characters of a 31-letter alphabet (~59 bits), 14 with hyphens. */
export function newVoucherCode(): string {
  const groups = Array.from({ length: 3 }, () =>
    Array.from({ length: 4 }, () => VOUCHER_ALPHABET[randomInt(VOUCHER_ALPHABET.length)]).join(''),
  );
  return groups.join('-');
}

/** Operators' vouchers for a package (by merchant code); answers the new codes. */
export async function createVouchers(
  deps: Pick<Deps, 'db' | 'clock'>,
  input: CreateVouchersInput,
  /** The console's batch the codes belong to (inside the batch's transaction). */
  batchId: string | null = null,
): Promise<{ codes: string[]; packageName: string; expiresAt: Date | null }> {
  const { db } = deps;
  const now = deps.clock.now();
  const pkg = await db
    .selectFrom('packages')
    .select(['id', 'name_en'])
    .where('merchant_code', '=', input.package)
    .executeTakeFirst();
  if (!pkg) throw notFound(`No package has the merchant code ${input.package}.`);
  const expiresAt = input.expiresAt ? new Date(input.expiresAt) : null;
  if (expiresAt && expiresAt <= now) throw badRequest('The expiry must be in the future.', 'expiresAt');

  const codes = new Set<string>();
  while (codes.size < input.count) codes.add(newVoucherCode());
  const rows = [...codes].map((code) => ({
    code,
    package_id: pkg.id,
    days: input.days,
    expires_at: expiresAt,
    created_at: now,
    batch_id: batchId,
  }));
  const inserted: string[] = [];
  for (let start = 0; start < rows.length; start += 500) {
    const batch = await db
      .insertInto('vouchers')
      .values(rows.slice(start, start + 500))
      // A clash with an older code is astronomically rare; such a code is just left out.
      .onConflict((oc) => oc.column('code').doNothing())
      .returning('code')
      .execute();
    inserted.push(...batch.map((row) => row.code));
  }
  return { codes: inserted, packageName: pkg.name_en, expiresAt };
}
