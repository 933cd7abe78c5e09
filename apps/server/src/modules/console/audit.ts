import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import './tables.js';

export interface AuditRecord {
  operatorId: string;
  action: string;
  targetType: string;
  targetId?: string | null;
  before?: unknown;
  after?: unknown;
}

const json = (value: unknown) => (value === undefined || value === null ? null : JSON.stringify(value));

/** Writes one audit entry; call it inside the transaction of the action it records. */
export async function audit(trx: Kysely<Database>, now: Date, record: AuditRecord): Promise<void> {
  await trx
    .insertInto('operator_audit')
    .values({
      operator_id: record.operatorId,
      action: record.action,
      target_type: record.targetType,
      target_id: record.targetId ?? null,
      before: json(record.before),
      after: json(record.after),
      created_at: now,
    })
    .execute();
}

export interface AuditQuery {
  limit: number;
  before?: string | undefined;
  operatorId?: string | undefined;
  targetId?: string | undefined;
}

/** The audit log newest first, a page at a time (keyset on the id). */
export async function listAudit(db: Kysely<Database>, query: AuditQuery) {
  let select = db
    .selectFrom('operator_audit as a')
    .innerJoin('operators as o', 'o.id', 'a.operator_id')
    .select([
      'a.id',
      'a.created_at',
      'a.operator_id',
      'o.email',
      'a.action',
      'a.target_type',
      'a.target_id',
      'a.before',
      'a.after',
    ])
    .orderBy('a.id', 'desc')
    .limit(query.limit + 1);
  if (query.before) select = select.where('a.id', '<', query.before);
  if (query.operatorId) select = select.where('a.operator_id', '=', query.operatorId);
  if (query.targetId) select = select.where('a.target_id', '=', query.targetId);
  const rows = await select.execute();
  const page = rows.slice(0, query.limit);
  const parse = (value: unknown) => (typeof value === 'string' ? (JSON.parse(value) as unknown) : value);
  return {
    entries: page.map((row) => ({
      id: String(row.id),
      at: row.created_at.toISOString(),
      operator: { id: row.operator_id, email: row.email },
      action: row.action,
      targetType: row.target_type,
      targetId: row.target_id,
      before: parse(row.before) ?? null,
      after: parse(row.after) ?? null,
    })),
    nextBefore: rows.length > query.limit ? String(page.at(-1)?.id) : null,
  };
}
