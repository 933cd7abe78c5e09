import { API_ERROR_CODES } from '@tunes/shared/error-codes';
import type { ConsoleOffer, OfferCreate } from '@tunes/shared/offers';
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Deps } from '../../deps.js';
import { AppError, badRequest, notFound } from '../../lib/errors.js';
import type { OffersTable } from './tables.js';
import './tables.js';

/**
 * The console's offers (docs/console-api.md "Offers", admin only): list, create, end. Each
 * change is audited in its own transaction by the console's `audit`, handed in (the console
 * builds on this module, never the other way).
 */
export type AuditWriter = (
  trx: Kysely<Database>,
  now: Date,
  record: {
    operatorId: string;
    action: string;
    targetType: string;
    targetId?: string | null;
    before?: unknown;
    after?: unknown;
  },
) => Promise<void>;

type OfferRow = Selectable<OffersTable>;

function view(row: OfferRow, codes: Map<number, string>): ConsoleOffer {
  return {
    id: row.id,
    code: row.code,
    kind: row.kind,
    value: row.value,
    periods: row.periods,
    audience: row.audience,
    plans: row.package_ids ? row.package_ids.map((id) => codes.get(id) ?? String(id)) : null,
    maxRedemptions: row.max_redemptions,
    redeemed: row.redeemed,
    endsAt: row.ends_at.toISOString(),
    endedAt: row.ended_at?.toISOString() ?? null,
    createdAt: row.created_at.toISOString(),
  };
}

async function planCodes(db: Kysely<Database>): Promise<Map<number, string>> {
  const rows = await db.selectFrom('packages').select(['id', 'merchant_code']).execute();
  return new Map(rows.map((row) => [row.id, row.merchant_code]));
}

/** Every offer, newest first. */
export async function listOffers(deps: Pick<Deps, 'db'>): Promise<ConsoleOffer[]> {
  const [rows, codes] = await Promise.all([
    deps.db.selectFrom('offers').selectAll().orderBy('created_at', 'desc').orderBy('code').execute(),
    planCodes(deps.db),
  ]);
  return rows.map((row) => view(row, codes));
}

/** `POST /api/admin/offers`: 409 `offer_code_taken` for a code in use (ended ones too). */
export async function createOffer(
  deps: Pick<Deps, 'db' | 'clock'>,
  audit: AuditWriter,
  operatorId: string,
  input: OfferCreate,
): Promise<ConsoleOffer> {
  const now = deps.clock.now();
  const endsAt = new Date(input.endsAt);
  if (endsAt.getTime() <= now.getTime()) throw badRequest('Give an end in the future.', 'endsAt');
  const codes = await planCodes(deps.db);
  let packageIds: number[] | null = null;
  if (input.plans) {
    const byCode = new Map([...codes].map(([id, code]) => [code, id]));
    const unknown = input.plans.filter((code) => !byCode.has(code));
    if (unknown.length) throw badRequest(`There is no plan with the code ${unknown[0]}.`, 'plans');
    packageIds = [...new Set(input.plans.map((code) => byCode.get(code) as number))];
  }
  const row = await deps.db.transaction().execute(async (trx) => {
    const made = await trx
      .insertInto('offers')
      .values({
        code: input.code,
        kind: input.kind,
        value: input.value,
        periods: input.periods,
        audience: input.audience,
        package_ids: packageIds,
        max_redemptions: input.maxRedemptions,
        ends_at: endsAt,
        created_by: operatorId,
        created_at: now,
      })
      .onConflict((oc) => oc.column('code').doNothing())
      .returningAll()
      .executeTakeFirst();
    if (!made) {
      throw new AppError(
        409,
        API_ERROR_CODES.offerCodeTaken,
        `The code ${input.code} is already used by an offer.`,
        {
          field: 'code',
        },
      );
    }
    await audit(trx, now, {
      operatorId,
      action: 'offer.create',
      targetType: 'offer',
      targetId: made.id,
      after: view(made, codes),
    });
    return made;
  });
  return view(row, codes);
}

/** `POST /api/admin/offers/{id}/end`: no new redemptions; the ones made keep their periods. */
export async function endOffer(
  deps: Pick<Deps, 'db' | 'clock'>,
  audit: AuditWriter,
  operatorId: string,
  id: string,
): Promise<ConsoleOffer> {
  const now = deps.clock.now();
  const codes = await planCodes(deps.db);
  const row = await deps.db.transaction().execute(async (trx) => {
    const before = await trx
      .selectFrom('offers')
      .selectAll()
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst();
    if (!before) throw notFound('There is no such offer.');
    if (before.ended_at) return before;
    const after = await trx
      .updateTable('offers')
      .set({ ended_at: now })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await audit(trx, now, {
      operatorId,
      action: 'offer.end',
      targetType: 'offer',
      targetId: id,
      before: view(before, codes),
      after: view(after, codes),
    });
    return after;
  });
  return view(row, codes);
}
