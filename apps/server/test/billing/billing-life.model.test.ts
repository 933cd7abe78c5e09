import type { BooksReport } from '@tunes/shared/books-codes';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/modules/accounts/secrets.js';
import { withPlans } from '../helpers/factories.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import {
  AdvanceClock,
  AtOnce,
  ChangePlan,
  DeleteAccount,
  RefundInConsole,
  RunDueJobs,
} from './billing-life/account-commands.js';
import { stepArbitrary } from './billing-life/commands.js';
import {
  ChooseRenewalMethod,
  PausePremium,
  PayLinkInvoice,
  ReplaceCard,
  ResumePremium,
} from './billing-life/feature-commands.js';
import {
  AnswerAtBank,
  CheckoutByCard,
  CheckoutByQpay,
  OpenPayPage,
  PayCardPage,
} from './billing-life/payment-commands.js';
import type { Step } from './billing-life/step.js';
import {
  MODEL_PASSWORD,
  type Model,
  newWorld,
  type Operator,
  retireWorld,
  type StepCount,
  signInOperator,
  type World,
} from './billing-life/world.js';

/**
 * The whole billing life as a model-based test (issue 33): runs of 2–3 listeners check out by
 * card and QPay, pay, decline, lose and repeat callbacks, change plans, cancel and resume,
 * remove their card, delete their account, are refunded in the console, and live through months
 * of due jobs; since issue 37 they also pause and resume Premium, choose to renew by card or by
 * QPay link, replace their card on the gateway's save-card page and pay renewals from their link
 * (billing-life/feature-commands.ts); after every step the invariants (billing-life/invariants.ts,
 * pause-invariants.ts) hold.
 *
 * The CI run is short. `BILLING_MODEL_STEPS=10000` (npm run test:billing-model) makes as many
 * runs as reach that many steps. A failure prints its seed and path; replay it with
 * `BILLING_MODEL_SEED=… BILLING_MODEL_PATH=…`, and keep its shrunk sequence below.
 */

const LONG_STEPS = Number(process.env.BILLING_MODEL_STEPS ?? 0);
// 50 runs (60 before issue 37's steps, which make more calls each): about the same time in CI.
const CI = { numRuns: 50, maxCommands: 40 };
const LONG_MAX_COMMANDS = 40;
const seed = Number(process.env.BILLING_MODEL_SEED ?? (Date.now() ^ (Math.random() * 0x100000000)) | 0);
const path = process.env.BILLING_MODEL_PATH;

let t: TestApp;
let operator: Operator;
let passwordHash: string;
const steps: StepCount = { count: 0, kinds: new Map(), users: [] };

beforeAll(async () => {
  t = await createTestApp({ PAYMENT_CHECK_INTERVAL_SECONDS: '0' });
  await withPlans(t);
  operator = await signInOperator(t);
  passwordHash = await hashPassword(MODEL_PASSWORD);
});
afterAll(async () => {
  await t?.close();
});

/** The seed, the steps and what the runs reached, on the test's output (vitest shows it). */
const say = (line: string) => process.stdout.write(`${line}\n`);

/** One run: a fresh set of listeners on the file's app, the steps, then its periods retired. */
async function live(listeners: number, commands: Iterable<fc.AsyncCommand<Model, World>>) {
  const setup = await newWorld(t, operator, listeners, passwordHash, steps);
  try {
    await fc.asyncModelRun(() => setup, commands);
  } finally {
    await retireWorld(setup.real);
  }
}

/** What the runs reached: invoices by kind and status, ledger rows by outcome, receipts by status. */
async function reached() {
  if (steps.users.length === 0) return 'nothing';
  const invoices = await t.db
    .selectFrom('payment_invoices')
    .select(['kind', 'status', (eb) => eb.fn.countAll<string>().as('count')])
    .where('user_id', 'in', steps.users)
    .groupBy(['kind', 'status'])
    .execute();
  const ledger = await t.db
    .selectFrom('payment_ledger as l')
    .innerJoin('payment_invoices as i', 'i.invoice_id', 'l.invoice_id')
    .select(['l.entry', 'l.method', 'l.outcome', (eb) => eb.fn.countAll<string>().as('count')])
    .where('i.user_id', 'in', steps.users)
    .groupBy(['l.entry', 'l.method', 'l.outcome'])
    .execute();
  const receipts = await t.db
    .selectFrom('ebarimt_receipts as r')
    .innerJoin('payment_invoices as i', 'i.invoice_id', 'r.invoice_id')
    .select(['r.status', (eb) => eb.fn.countAll<string>().as('count')])
    .where('i.user_id', 'in', steps.users)
    .groupBy('r.status')
    .execute();
  const pauses = await t.db
    .selectFrom('subscription_pauses as z')
    .innerJoin('subscriptions as s', 's.id', 'z.subscription_id')
    .select([
      'z.status',
      (eb) => eb.fn.countAll<string>().as('count'),
      (eb) => eb.fn.count<string>('z.ended_at').filterWhereRef('z.ended_at', '<', 'z.resumes_at').as('early'),
    ])
    .where('s.owner_id', 'in', steps.users)
    .groupBy('z.status')
    .execute();
  const cards = await t.db
    .selectFrom('card_replacements')
    .select(['status', (eb) => eb.fn.countAll<string>().as('count')])
    .where('user_id', 'in', steps.users)
    .groupBy('status')
    .execute();
  const byLink = await t.db
    .selectFrom('renewal_methods')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('user_id', 'in', steps.users)
    .where('method', '=', 'qpay')
    .executeTakeFirst();
  const deleted = await t.db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('id', 'in', steps.users)
    .where('deleted_at', 'is not', null)
    .executeTakeFirst();
  return [
    `invoices ${invoices.map((row) => `${row.kind}/${row.status} ${row.count}`).join(', ')}`,
    `ledger ${ledger.map((row) => `${row.entry}/${row.method}/${row.outcome ?? '-'} ${row.count}`).join(', ')}`,
    `receipts ${receipts.map((row) => `${row.status} ${row.count}`).join(', ')}`,
    `pauses ${pauses.map((row) => `${row.status} ${row.count} (early ${row.early})`).join(', ')}`,
    `card replacements ${cards.map((row) => `${row.status} ${row.count}`).join(', ')}`,
    `renewing by link ${byLink?.count ?? 0}`,
    `deleted accounts ${deleted?.count ?? 0}`,
  ].join('; ');
}

function lifeProperty(maxCommands: number, stopAfterSteps = Number.POSITIVE_INFINITY) {
  return fc.asyncProperty(
    fc.integer({ min: 2, max: 3 }),
    fc.commands([stepArbitrary], { maxCommands, size: 'max' }),
    async (listeners, commands) => {
      if (steps.count >= stopAfterSteps) return;
      await live(listeners, commands);
    },
  );
}

/**
 * The product's own books check (billing/books-check.ts) must agree with the model's invariants
 * over everything the runs did: after an hour (every lost callback found by the periodic
 * check, every receipt issued) it finds no mismatch. A mismatch here with the invariants
 * holding is a false alarm of the books check, or a gap in the invariants.
 */
async function productBooksAgree() {
  const moved = await t.app.inject({ method: 'POST', url: '/dev/clock', payload: { advanceSeconds: 3600 } });
  expect(moved.statusCode, moved.body).toBe(200);
  for (let pass = 0; pass < 2; pass++) {
    const ran = await t.app.inject({ method: 'POST', url: '/dev/jobs/run-due' });
    expect(ran.statusCode, ran.body).toBe(200);
  }
  const answer = await t.app.inject({ method: 'GET', url: '/dev/books?graceSeconds=0' });
  expect(answer.statusCode, answer.body).toBe(200);
  const report = answer.json() as BooksReport;
  expect(report.unchecked, 'invoices the books check could not ask about').toEqual([]);
  expect(report.mismatches, 'the books check').toEqual([]);
}

async function assertLife(numRuns: number, maxCommands: number, stopAfterSteps?: number) {
  const started = performance.now();
  const before = steps.count;
  say(
    `billing-life: seed=${seed}${path ? ` path=${path}` : ''} numRuns=${numRuns} maxCommands=${maxCommands}`,
  );
  try {
    await fc.assert(lifeProperty(maxCommands, stopAfterSteps), {
      numRuns,
      seed,
      ...(path ? { path } : {}),
    });
    await productBooksAgree();
  } finally {
    const seconds = (performance.now() - started) / 1000;
    const done = steps.count - before;
    say(
      `billing-life: ${done} steps in ${seconds.toFixed(1)} s (${(done / seconds).toFixed(1)} steps/s), seed=${seed}`,
    );
    say(`billing-life: steps ${[...steps.kinds].map(([kind, count]) => `${kind} ${count}`).join(', ')}`);
    say(`billing-life: reached ${await reached()}`);
  }
}

describe('the billing life (model-based)', () => {
  it.skipIf(LONG_STEPS > 0)(
    'keeps the books, the periods, deletions and receipts right whatever listeners, providers and operators do',
    async () => {
      await assertLife(CI.numRuns, CI.maxCommands);
    },
    600_000,
  );

  it.runIf(LONG_STEPS > 0)(
    `keeps them right for ${LONG_STEPS} steps`,
    async () => {
      // numRuns only bounds it: runs average about 15 steps, and do nothing once the steps are reached.
      await assertLife(LONG_STEPS, LONG_MAX_COMMANDS, LONG_STEPS);
    },
    24 * 3_600_000,
  );
});

const DAY = 86_400;

/**
 * Sequences the model found and shrank, kept as named tests. One marked "[FAILS until fixed]"
 * shows a bug not fixed yet; the others were fixed and stay as regressions.
 */
describe.skipIf(LONG_STEPS > 0)('the billing life: sequences the model found', () => {
  it('a full refund just after the period ended stops its renewal', async () => {
    await live(2, [
      new CheckoutByCard(0, 'premium', true),
      new PayCardPage(0, 'paid', true),
      new AdvanceClock(31 * DAY),
      new RefundInConsole(0, 0, false),
      new RunDueJobs(),
    ]);
  });

  /** The same step in `tabs` tabs at once, `rounds` times over on fresh listeners: a race, lost surely. */
  async function inTabs(before: Step[], step: Step, tabs = 8, rounds = 4) {
    for (let round = 0; round < rounds; round++) {
      await live(2, [...before, new AtOnce(...Array.from({ length: tabs }, () => step))]);
    }
  }

  // Found by the long run on PostgreSQL (seed 1405326389): two tabs bought Premium twice (the
  // second period starts when the first ends); upgrading that later period to Family charged
  // 22,367 MNT, more than a whole month of Family (17,900), for one month of it.
  it('an upgrade of a period paid ahead costs no more than the new plan', async () => {
    await live(2, [
      new CheckoutByQpay(0, 'premium'),
      new CheckoutByCard(0, 'premium', false),
      new PayCardPage(0, 'paid', false),
      new AnswerAtBank(0, true, false, 0),
      new ChangePlan(0, 0, 'family'),
    ]);
  });

  // Found as two at once (as are the next two); eight tabs, four times over, make the race sure.
  it('tabs opening the QPay page of one invoice at once all get it', async () => {
    await inTabs([new CheckoutByCard(0, 'premium', false)], new OpenPayPage(0, 0, 'qpay'));
  });

  it('tabs upgrading at once without a saved card all get the page to pay the difference', async () => {
    await inTabs(
      [new CheckoutByCard(0, 'premium', false), new PayCardPage(0, 'paid', false)],
      new ChangePlan(0, 0, 'family'),
    );
  });

  it('tabs opening the card page of a QPay invoice at once all get it', async () => {
    await inTabs([new CheckoutByQpay(0, 'premium')], new OpenPayPage(0, 0, 'card'));
  });

  // Issue 37's account features, each life once for sure (the random runs reach them less often).
  it('a paused plan: nothing charged during the pause, charged once at the resumption', async () => {
    await live(2, [
      new CheckoutByCard(0, 'family', true),
      new PayCardPage(0, 'paid', true),
      new PausePremium(0, 0, 2),
      new AdvanceClock(31 * DAY),
      new RunDueJobs(),
      new AdvanceClock(31 * DAY),
      new RunDueJobs(),
      new AdvanceClock(3 * DAY),
      new RunDueJobs(),
    ]);
  });

  it('resumed early during the pause, at once with the due jobs', async () => {
    await live(2, [
      new CheckoutByCard(0, 'premium', true),
      new PayCardPage(0, 'paid', true),
      new PausePremium(0, 0, 3),
      new AdvanceClock(31 * DAY),
      new RunDueJobs(),
      new AdvanceClock(3 * DAY),
      new AtOnce(new ResumePremium(0, 0), new RunDueJobs(), new ResumePremium(0, 0)),
      new AdvanceClock(31 * DAY),
      new RunDueJobs(),
    ]);
  });

  it('renewing by QPay link: the card on file is not charged, the link is paid in a bank app', async () => {
    await live(2, [
      new CheckoutByCard(0, 'premium', true),
      new PayCardPage(0, 'paid', true),
      new ChooseRenewalMethod(0, 'qpay'),
      new AdvanceClock(27 * DAY),
      new RunDueJobs(),
      new AdvanceClock(3 * DAY),
      new RunDueJobs(),
      new PayLinkInvoice(0, 0, 'qpay'),
      new AdvanceClock(31 * DAY),
      new RunDueJobs(),
      new PayLinkInvoice(0, 0, 'card'),
    ]);
  });

  it('a failing card replaced on the save-card page pays the failed renewal once', async () => {
    await live(2, [
      new CheckoutByCard(0, 'duo', true),
      new PayCardPage(0, 'fails-later', true),
      new AdvanceClock(31 * DAY),
      new RunDueJobs(),
      new AtOnce(new ReplaceCard(0, 'paid', true), new ReplaceCard(0, 'paid', true), new RunDueJobs()),
      new RunDueJobs(),
      new AtOnce(
        new ChooseRenewalMethod(0, 'card'),
        new ChooseRenewalMethod(0, 'qpay'),
        new PausePremium(0, 0, 1),
      ),
      new AdvanceClock(31 * DAY),
      new RunDueJobs(),
    ]);
  });

  // Found by the CI run on PostgreSQL (seed -1256913699) after cf4e9cf: the deletion leaves the
  // QPay page open for the periodic check to close; paid at once with its callback lost, it is
  // found only by closing leftover pages, which now looks back 14 days, so after a longer gap in
  // the jobs the 6,900 MNT is never given back.
  it('a QPay payment on the page of a deleted account is given back whenever the check first runs', async () => {
    await live(2, [
      new CheckoutByQpay(0, 'premium'),
      new DeleteAccount(0),
      new AnswerAtBank(0, true, true, 0),
      new AdvanceClock(31 * DAY),
      new RunDueJobs(),
    ]);
  });
});
