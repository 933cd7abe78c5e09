import { rmSync } from 'node:fs';
import type { BooksReport } from '@tunes/shared/books-codes';

/**
 * After the whole suite, the books of the shared e2e server's database must balance: the
 * payment ledger against the invoices, the sandbox gateway and QPay, and the periods
 * (`GET /dev/books`, apps/server/src/modules/billing/books-check.ts). Playwright runs this before
 * it stops the web server. What a test started in its last minute may still be on its way (a
 * payment reconciled by the periodic check), so the check's grace period is a minute. The
 * clock-moving specs' own servers (own-server.ts) are not checked here.
 */
const GRACE_SECONDS = 60;

export default async function booksTeardown(): Promise<void> {
  // The own servers' template database (own-server.ts) is no longer needed: every worker has ended.
  if (process.env.E2E_OWN_TEMPLATE) rmSync(process.env.E2E_OWN_TEMPLATE, { recursive: true, force: true });
  const origin = `http://localhost:${process.env.E2E_PORT}`;
  const response = await fetch(`${origin}/dev/books?graceSeconds=${GRACE_SECONDS}`);
  if (!response.ok) {
    throw new Error(`The books check answered ${response.status}: ${(await response.text()).slice(0, 500)}`);
  }
  const report = (await response.json()) as BooksReport;
  const lines = [
    ...report.mismatches.map(
      (found) => `  ${found.kind} ${found.invoiceId ?? found.subscriptionId ?? ''}: ${found.detail}`,
    ),
    ...report.unchecked.map((skipped) => `  not checked ${skipped.invoiceId}: ${skipped.detail}`),
  ];
  if (lines.length > 0) {
    throw new Error(
      `The books of the e2e server do not balance after the suite (${report.mismatches.length} mismatch(es), ` +
        `${report.unchecked.length} invoice(s) not checked):\n${lines.join('\n')}`,
    );
  }
}
