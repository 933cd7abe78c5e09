import { randomInt } from 'node:crypto';
import type { Deps } from '@tunes/server/deps';
import { sql } from 'kysely';
import type { SandboxEbarimtFaultKind } from './tables.js';
import './tables.js';

const LOTTERY_LETTERS = 'ABCDEFGHJKLMNPQRSTUVWXYZ';

/** A 33-digit bill id (ДДТД) as PosAPI writes one. */
function billId(): string {
  let digits = '';
  while (digits.length < 33) digits += String(randomInt(0, 1_000_000_000)).padStart(9, '0');
  return digits.slice(0, 33);
}

/** A lottery number as the tax authority prints it: two letters and eight digits. */
function lottery(): string {
  const letter = () => LOTTERY_LETTERS[randomInt(0, LOTTERY_LETTERS.length)];
  return `${letter()}${letter()} ${String(randomInt(0, 100_000_000)).padStart(8, '0')}`;
}

/** PosAPI's date form: "2026-11-29 14:03:00". */
const posDate = (date: Date) => date.toISOString().slice(0, 19).replace('T', ' ');

/** Takes one ordered fault, if any is left: the caller answers as its kind says. */
export async function takeFault(deps: Pick<Deps, 'db'>) {
  return deps.db
    .updateTable('sandbox_ebarimt_outages')
    .set({ remaining: sql<number>`remaining - 1` })
    .where('id', '=', 1)
    .where('remaining', '>', 0)
    .returning(['kind', 'delay_ms'])
    .executeTakeFirst();
}

export async function orderFaults(
  deps: Pick<Deps, 'db'>,
  fault: { count: number; kind: SandboxEbarimtFaultKind; delayMs: number },
): Promise<void> {
  const row = { remaining: fault.count, kind: fault.kind, delay_ms: fault.delayMs };
  await deps.db
    .insertInto('sandbox_ebarimt_outages')
    .values({ id: 1, ...row })
    .onConflict((oc) => oc.column('id').doUpdateSet(row))
    .execute();
}

export interface SandboxReceipt {
  type: 'B2C_RECEIPT' | 'B2B_RECEIPT';
  merchantTin: string;
  customerTin: string | null;
  totalAmount: number;
  totalVAT: number;
}

/** Issues a receipt: a citizen one carries a lottery number, a company one does not. */
export async function issueSandboxReceipt(deps: Pick<Deps, 'db' | 'clock'>, receipt: SandboxReceipt) {
  const now = deps.clock.now();
  const row = {
    id: billId(),
    type: receipt.type,
    merchant_tin: receipt.merchantTin,
    customer_tin: receipt.customerTin,
    total_amount: receipt.totalAmount,
    total_vat: receipt.totalVAT,
    lottery: receipt.type === 'B2C_RECEIPT' ? lottery() : null,
    date: posDate(now),
    created_at: now,
  };
  await deps.db.insertInto('sandbox_ebarimt_receipts').values(row).execute();
  return row;
}

/** Voids an issued receipt; false when there is none with that id and date. */
export async function voidSandboxReceipt(deps: Pick<Deps, 'db'>, id: string, date: string): Promise<boolean> {
  const voided = await deps.db
    .updateTable('sandbox_ebarimt_receipts')
    .set({ voided: true })
    .where('id', '=', id)
    .where('date', '=', date)
    .returning('id')
    .executeTakeFirst();
  return voided !== undefined;
}
