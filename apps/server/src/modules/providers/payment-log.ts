import { sql } from 'kysely';
import { prepared } from '../../db/prepared.js';
import type { Deps } from '../../deps.js';
import './tables.js';

export type PaymentStep =
  | 'checkout'
  | 'return'
  | 'callback'
  | 'check'
  | 'activation'
  | 'renewal'
  | 'change'
  | 'ebarimt'
  | 'refund';

/** product.md §3 "Payment log record" in our words. */
export interface PaymentLogEntry {
  orderNumber: string;
  userId?: string | null;
  subscriberName?: string;
  packageName?: string;
  purchasePrice?: number | null;
  currentProcess: PaymentStep;
  type: 'info' | 'error' | 'warning';
  message: string;
  request?: unknown;
  response?: unknown;
}

const erased = (userId: string | null) =>
  sql<boolean>`exists (select 1 from users u where u.id = ${userId} and u.deleted_at is not null)`;

const json = (value: unknown) => (value === undefined ? null : JSON.stringify(value));

type LineArgs = {
  orderNumber: string;
  userId: string | null;
  subscriberName: string;
  packageName: string;
  purchasePrice: number | null;
  currentProcess: PaymentStep;
  type: PaymentLogEntry['type'];
  message: string;
  request: string | null;
  response: string | null;
};

const lineArgs = (entry: PaymentLogEntry): LineArgs => ({
  orderNumber: entry.orderNumber,
  userId: entry.userId ?? null,
  subscriberName: entry.subscriberName ?? '',
  packageName: entry.packageName ?? '',
  purchasePrice: entry.purchasePrice ?? null,
  currentProcess: entry.currentProcess,
  type: entry.type,
  message: entry.message,
  request: json(entry.request),
  response: json(entry.response),
});

const lineRow = (args: LineArgs) => ({
  order_number: args.orderNumber,
  user_id: args.userId,
  subscriber_name: args.subscriberName,
  package_name: args.packageName,
  purchase_price: args.purchasePrice,
  current_process: args.currentProcess,
  type: args.type,
  message: args.message,
  // A deleted account's lines keep no request or answer (card details among them).
  request: sql<string | null>`case when ${erased(args.userId)} then null else ${args.request}::jsonb end`,
  response: sql<string | null>`case when ${erased(args.userId)} then null else ${args.response}::jsonb end`,
});

/** One log line, its statement built once (every checkout and renewal writes several). */
const insertLogLine = prepared((db: Deps['db'], args: LineArgs) =>
  db.insertInto('payment_logs').values(lineRow(args)),
);

type TwoLines = Record<`${keyof LineArgs}${0 | 1}`, unknown>;
const numbered = (line: LineArgs, n: 0 | 1) =>
  Object.fromEntries(Object.entries(line).map(([key, value]) => [`${key}${n}`, value]));
const line = (args: TwoLines, n: 0 | 1) =>
  Object.fromEntries(
    Object.keys(args)
      .filter((key) => key.endsWith(String(n)))
      .map((key) => [key.slice(0, -1), args[key as keyof TwoLines]]),
  ) as LineArgs;

/** Two lines in one statement (a provider's answer and what was done with it), built once. */
const insertTwoLogLines = prepared((db: Deps['db'], args: TwoLines) =>
  db.insertInto('payment_logs').values([lineRow(line(args, 0)), lineRow(line(args, 1))]),
);

/**
 * Writes one step to the payment log. A failed write must not fail the payment (product.md §8: log
 * post failure is only reported), so it is handed to `reportError`.
 */
export async function writePaymentLog(
  deps: Pick<Deps, 'db' | 'reportError'>,
  entry: PaymentLogEntry,
): Promise<void> {
  await writePaymentLogs(deps, [entry]);
}

/**
 * Writes several lines in one statement, in their order (ids rise with it): one round trip where
 * a step logs a provider's answer and what it did with it. Failures are reported, as above.
 */
export async function writePaymentLogs(
  deps: Pick<Deps, 'db' | 'reportError'>,
  entries: readonly PaymentLogEntry[],
): Promise<void> {
  try {
    const [first, second, ...rest] = entries.map(lineArgs);
    if (!first) return;
    if (!second) await insertLogLine(deps.db, first);
    else if (rest.length === 0)
      await insertTwoLogLines(deps.db, { ...numbered(first, 0), ...numbered(second, 1) } as TwoLines);
    else
      await deps.db
        .insertInto('payment_logs')
        .values([first, second, ...rest].map(lineRow))
        .execute();
  } catch (error) {
    deps.reportError(error, 'payment log write failed');
  }
}

export function subscriberName(user: { first_name: string; last_name: string; username: string }): string {
  return `${user.first_name} ${user.last_name}`.trim() || user.username;
}

/** The log of one invoice, oldest first (operators and tests read it). */
export function listPaymentLog(deps: Pick<Deps, 'db'>, invoiceId: string) {
  return deps.db
    .selectFrom('payment_logs')
    .selectAll()
    .where('order_number', '=', invoiceId)
    .orderBy('id', 'asc')
    .execute();
}
