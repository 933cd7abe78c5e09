import type { Deps } from '../../deps.js';
import { badRequest, notFound } from '../../lib/errors.js';
import { createVouchers } from '../vouchers/voucher-codes.js';
import { audit } from './audit.js';
import './tables.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
type BatchDeps = Pick<Deps, 'db' | 'clock'>;

/** The packages a batch may activate: every active plan. */
export async function voucherPackages(deps: Pick<Deps, 'db'>) {
  const rows = await deps.db
    .selectFrom('packages')
    .select(['merchant_code', 'name_en'])
    .where('is_active', '=', true)
    .orderBy('sort_order')
    .orderBy('merchant_code')
    .execute();
  return rows.map((row) => ({ code: row.merchant_code, name: row.name_en }));
}

/** Every batch with its plan, maker (none for one made on the command line) and code counts. */
function batches(deps: Pick<Deps, 'db'>) {
  return deps.db
    .selectFrom('voucher_batches as b')
    .innerJoin('packages as p', 'p.id', 'b.package_id')
    .leftJoin('operators as o', 'o.id', 'b.created_by')
    .select((eb) => [
      'b.id',
      'p.merchant_code',
      'b.days',
      'b.count',
      'b.expires_at',
      'b.created_at',
      'o.email',
      'b.note',
      eb
        .selectFrom('vouchers as v')
        .select((inner) => inner.fn.countAll<string>().as('n'))
        .whereRef('v.batch_id', '=', 'b.id')
        .where('v.redeemed_by', 'is not', null)
        .as('redeemed'),
      eb
        .selectFrom('vouchers as v')
        .select((inner) => inner.fn.countAll<string>().as('n'))
        .whereRef('v.batch_id', '=', 'b.id')
        .where('v.revoked_at', 'is not', null)
        .as('revoked'),
    ]);
}
type BatchRow = Awaited<ReturnType<ReturnType<typeof batches>['executeTakeFirstOrThrow']>>;

const toBatch = (row: BatchRow) => ({
  id: row.id,
  packageCode: row.merchant_code,
  days: row.days,
  count: row.count,
  expiresAt: row.expires_at?.toISOString() ?? null,
  createdAt: row.created_at.toISOString(),
  createdBy: row.email ?? null,
  redeemed: Number(row.redeemed ?? 0),
  revoked: Number(row.revoked ?? 0),
  note: row.note,
});

export async function listBatches(deps: Pick<Deps, 'db'>) {
  const rows = await batches(deps).orderBy('b.created_at', 'desc').limit(200).execute();
  return rows.map(toBatch);
}

async function batch(deps: Pick<Deps, 'db'>, id: string) {
  if (!UUID.test(id)) throw notFound('No such voucher batch.');
  const row = await batches(deps).where('b.id', '=', id).executeTakeFirst();
  if (!row) throw notFound('No such voucher batch.');
  return toBatch(row);
}

/** A batch of codes (modules/vouchers makes them), its row and its audit entry in one transaction. */
export async function createBatch(
  deps: BatchDeps,
  operatorId: string,
  input: { packageCode: string; days: number; count: number; expiresAt: string; note?: string | undefined },
) {
  const now = deps.clock.now();
  const expiresAt = new Date(input.expiresAt);
  if (expiresAt <= now) throw badRequest('The expiry must be in the future.', 'expiresAt');
  const id = await deps.db.transaction().execute(async (trx) => {
    const pkg = await trx
      .selectFrom('packages')
      .select('id')
      .where('merchant_code', '=', input.packageCode)
      .executeTakeFirst();
    if (!pkg) throw badRequest(`No package has the code ${input.packageCode}.`, 'packageCode');
    const row = await trx
      .insertInto('voucher_batches')
      .values({
        package_id: pkg.id,
        days: input.days,
        count: input.count,
        expires_at: expiresAt,
        note: input.note || null,
        created_by: operatorId,
        created_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const { codes } = await createVouchers(
      { db: trx, clock: deps.clock },
      { package: input.packageCode, days: input.days, count: input.count, expiresAt: input.expiresAt },
      row.id,
    );
    if (codes.length !== input.count) {
      await trx
        .updateTable('voucher_batches')
        .set({ count: codes.length })
        .where('id', '=', row.id)
        .execute();
    }
    await audit(trx, now, {
      operatorId,
      action: 'voucher.batch.create',
      targetType: 'voucher_batch',
      targetId: row.id,
      after: { ...input, count: codes.length },
    });
    return row.id;
  });
  return batch(deps, id);
}

const csvField = (value: string) => (/[",\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value);

/** The batch's codes as CSV: code, package, days, expiry and status of each. */
export async function batchCsv(deps: Pick<Deps, 'db'>, id: string): Promise<string> {
  const found = await batch(deps, id);
  const rows = await deps.db
    .selectFrom('vouchers')
    .select(['code', 'days', 'expires_at', 'redeemed_by', 'revoked_at'])
    .where('batch_id', '=', id)
    .orderBy('code')
    .execute();
  const lines = rows.map((row) =>
    [
      row.code,
      found.packageCode,
      String(row.days),
      row.expires_at?.toISOString() ?? '',
      row.redeemed_by ? 'redeemed' : row.revoked_at ? 'revoked' : 'unused',
    ]
      .map(csvField)
      .join(','),
  );
  return `${['code,package,days,expires_at,status', ...lines].join('\r\n')}\r\n`;
}

/** Every unused code of the batch stops working; redeemed ones stay. */
export async function revokeBatch(deps: BatchDeps, operatorId: string, id: string) {
  const before = await batch(deps, id);
  const now = deps.clock.now();
  const revokedNow = await deps.db.transaction().execute(async (trx) => {
    const revoked = await trx
      .updateTable('vouchers')
      .set({ revoked_at: now })
      .where('batch_id', '=', id)
      .where('redeemed_by', 'is', null)
      .where('revoked_at', 'is', null)
      .returning('code')
      .execute();
    await audit(trx, now, {
      operatorId,
      action: 'voucher.batch.revoke',
      targetType: 'voucher_batch',
      targetId: id,
      before: { revoked: before.revoked, redeemed: before.redeemed },
      after: { revokedNow: revoked.length },
    });
    return revoked.length;
  });
  return { batch: await batch(deps, id), revokedNow };
}
