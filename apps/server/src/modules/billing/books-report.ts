import type { BooksMismatch, BooksReport } from '@tunes/shared/books-codes';

const subject = (found: Pick<BooksMismatch, 'invoiceId' | 'subscriptionId'>) =>
  [
    found.invoiceId ? `invoice ${found.invoiceId}` : null,
    found.subscriptionId ? `subscription ${found.subscriptionId}` : null,
  ]
    .filter(Boolean)
    .join(', ') || 'ledger';

/** A books check as lines of text: a summary, then each mismatch and each invoice not checked. */
export function booksReportLines(report: BooksReport): string[] {
  const scope = report.since ? `invoices touched since ${report.since}` : 'all invoices';
  const lines = [
    `Books check of ${report.startedAt} (${scope}): ${report.invoicesAsked} invoice(s) asked of the providers, ` +
      `${report.mismatches.length} mismatch(es), ${report.unchecked.length} not checked.`,
  ];
  for (const found of report.mismatches) lines.push(`  ${found.kind}  ${subject(found)}: ${found.detail}`);
  if (report.truncated) lines.push('  … and more: only the first ones are listed.');
  for (const skipped of report.unchecked)
    lines.push(`  not checked  invoice ${skipped.invoiceId}: ${skipped.detail}`);
  if (report.mismatches.length === 0 && report.unchecked.length === 0) lines.push('The books balance.');
  return lines;
}
