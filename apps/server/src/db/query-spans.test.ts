import { describe, expect, it } from 'vitest';
import { statementSummary } from './query-spans.js';

describe('a statement span is named by its operation and first table', () => {
  it.each([
    ['select * from "packages" where "merchant_code" = $1', { operation: 'select', table: 'packages' }],
    [
      'insert into "payment_invoices" ("invoice_id") values ($1)',
      { operation: 'insert', table: 'payment_invoices' },
    ],
    ['update "outbox_messages" set "attempts" = $1', { operation: 'update', table: 'outbox_messages' }],
    ['delete from "pgboss"."job" where id = $1', { operation: 'delete', table: 'job' }],
    ['(select 1 from users) union all (select 2 from members)', { operation: 'select', table: 'users' }],
    ['begin isolation level serializable', { operation: 'begin' }],
  ])('%s', (sql, summary) => {
    expect(statementSummary(sql)).toEqual(summary);
  });
});
