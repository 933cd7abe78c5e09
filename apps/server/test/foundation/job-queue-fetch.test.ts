import { createRequire } from 'node:module';
import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/** pg-boss's own fetch statement (its `plans.js`), so the plan asserted on is the one it runs. */
const { fetchNextJob } = createRequire(import.meta.url)('pg-boss/src/plans.js') as {
  fetchNextJob: (schema: string) => (options: Record<string, unknown>) => string;
};

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Alias?: string;
  'Actual Rows': number;
  Plans?: PlanNode[];
}

const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

/**
 * A day's renewals are enqueued at once (100,000 on the budget's day), and workers take them a
 * batch at a time. pg-boss takes a batch in its order (priority, then age); the job queue gives
 * its table an index in that order (lib/job-queue.ts), so a fetch reads the jobs it takes rather
 * than sorting the whole queue each time (docs/performance.md: 75 million rows read to remind
 * 100,000 subscriptions).
 */
describe('the job queue takes a batch without reading the whole queue', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    // Starts pg-boss on the queues the template holds (helpers/installed-job-queue.ts).
    await t.app.jobs.runDue();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('reads 200 jobs to take 200 of 3,000 waiting', async () => {
    await sql`
      insert into pgboss.job (name, data, singleton_key, policy)
      select 'billing.renew', jsonb_build_object('key', g::text), g::text, 'stately'
      from generate_series(1, 3000) as g`.execute(t.db);
    // What autovacuum does after such an insert: the planner knows the queue's size.
    await sql`analyze pgboss.job`.execute(t.db);

    const fetch = fetchNextJob('pgboss')({});
    // The fetch marks the jobs it takes: run in a transaction that is then rolled back.
    let plan: unknown;
    const undo = new Error('undo the fetch');
    await t.db
      .transaction()
      .execute(async (trx) => {
        const { rows } = await trx.executeQuery<{ 'QUERY PLAN': unknown }>(
          CompiledQuery.raw(`explain (analyze, format json) ${fetch}`, ['billing.renew', 200]),
        );
        plan = rows[0]?.['QUERY PLAN'];
        throw undo;
      })
      .catch((error: unknown) => {
        if (error !== undo) throw error;
      });
    const [{ Plan: root }] = (typeof plan === 'string' ? JSON.parse(plan) : plan) as [{ Plan: PlanNode }];
    // The batch's choice (`with next as (select … from pgboss.job … limit $2 for update skip
    // locked)`): what it reads of the queue. The update that marks the 200 then joins them by id.
    const choice = nodesOf(root).filter((node) => node.Alias === 'job' && node['Node Type'].endsWith('Scan'));
    expect(choice.map((node) => [node['Node Type'], node['Actual Rows']])).toEqual([['Index Scan', 200]]);
    expect(choice[0]?.['Index Name']).toMatch(/name_priority_created_on_id_idx$/);
  });
});
