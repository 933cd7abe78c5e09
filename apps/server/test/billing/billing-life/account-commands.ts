import { expect } from 'vitest';
import { PLAN_CODES } from '../../helpers/factories.js';
import type { Plan } from './payment-commands.js';
import { ListenerStep, Step } from './step.js';
import { expectNo5xx, headersOf, keepPage, type Model, operatorCall, userAt, type World } from './world.js';

/**
 * What a listener does with their plan and account (change, cancel, resume, remove the card,
 * delete the account), what an operator does (refund), and time passing with its due jobs.
 */

/** The `pick`th of the listener's periods, newest first. */
export async function periodOf(world: World, user: number, pick: number) {
  const periods = await world.t.db
    .selectFrom('subscriptions')
    .select('id')
    .where('owner_id', '=', userAt(world, user).id)
    .orderBy('start_date', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return periods[pick % Math.max(1, periods.length)]?.id;
}

/** `POST /api/subscriptions/{id}/change`: an upgrade now (charged, or a page to pay), a downgrade at renewal. */
export class ChangePlan extends ListenerStep {
  constructor(
    user: number,
    readonly pick: number,
    readonly plan: Plan,
  ) {
    super(user);
  }
  async act(model: Model, world: World) {
    const period = await periodOf(world, this.user, this.pick);
    if (!period) return;
    const answer = await world.t.app.inject({
      method: 'POST',
      url: `/api/subscriptions/${period}/change`,
      headers: await headersOf(world, this.user),
      payload: { MerchantCode: PLAN_CODES[this.plan] },
    });
    if (expectNo5xx(answer, String(this)).statusCode !== 200) return;
    const body = answer.json() as { status: string; url?: string; invoiceId?: string };
    if (body.status === 'payment_required' && body.url && body.invoiceId) {
      keepPage(model, world, body.invoiceId, this.user, { card: new URL(body.url) });
    }
  }
  toString() {
    return `ChangePlan(${this.user}, ${this.pick}, '${this.plan}')`;
  }
}

/** Auto-renew off (`…/cancel`) or back on (`…/resume`). */
export class SetAutoRenew extends ListenerStep {
  constructor(
    user: number,
    readonly pick: number,
    readonly on: boolean,
  ) {
    super(user);
  }
  async act(_model: Model, world: World) {
    const period = await periodOf(world, this.user, this.pick);
    if (!period) return;
    const { id } = userAt(world, this.user);
    const answer = await world.t.app.inject({
      method: 'POST',
      url: this.on
        ? `/api/subscriptions/${period}/resume`
        : `/api/users/${id}/subscriptions/${period}/cancel`,
      headers: await headersOf(world, this.user),
    });
    expectNo5xx(answer, String(this));
  }
  toString() {
    return `SetAutoRenew(${this.user}, ${this.pick}, ${this.on})`;
  }
}

export class RemoveCard extends ListenerStep {
  async act(_model: Model, world: World) {
    const answer = await world.t.app.inject({
      method: 'DELETE',
      url: '/api/users/me/card',
      headers: await headersOf(world, this.user),
    });
    expectNo5xx(answer, String(this));
  }
  toString() {
    return `RemoveCard(${this.user})`;
  }
}

/** `DELETE /api/users/me` with the account's password: refused only once it is gone (or by the other of two at once). */
export class DeleteAccount extends ListenerStep {
  async act(model: Model, world: World) {
    const answer = await world.t.app.inject({
      method: 'DELETE',
      url: '/api/users/me',
      headers: await headersOf(world, this.user),
      payload: { Password: userAt(world, this.user).password },
    });
    if (world.racing) expectNo5xx(answer, String(this));
    else expect(answer.statusCode, `${this}: ${answer.body}`).toBe(204);
    const user = model.users[this.user % model.users.length];
    if (user) user.deleted = true;
  }
  toString() {
    return `DeleteAccount(${this.user})`;
  }
}

/**
 * An operator refunds one of the run's invoices in the console: all that is left (`part` 0) or
 * that share of it. Mostly a paid one; `anyInvoice` tries any, which may well be refused.
 */
export class RefundInConsole extends Step {
  constructor(
    readonly pick: number,
    readonly part: number,
    readonly anyInvoice: boolean,
  ) {
    super();
  }
  async act(_model: Model, world: World) {
    const invoices = await world.t.db
      .selectFrom('payment_invoices')
      .select(['invoice_id', 'status'])
      .where(
        'user_id',
        'in',
        world.users.map((user) => user.id),
      )
      .orderBy('created_at')
      .orderBy('invoice_id')
      .execute();
    const candidates = this.anyInvoice
      ? invoices
      : invoices.filter((invoice) => invoice.status === 'paid' || invoice.status === 'partly_refunded');
    const invoice = candidates[this.pick % Math.max(1, candidates.length)];
    if (!invoice) return;
    // What is left to give back: the applied capture less its refunds (a surplus is given back already).
    const rows = await world.t.db
      .selectFrom('payment_ledger')
      .select(['id', 'entry', 'amount', 'outcome', 'refund_of'])
      .where('invoice_id', '=', invoice.invoice_id)
      .execute();
    const applied = new Set(
      rows.filter((row) => row.entry === 'capture' && row.outcome === 'applied').map((row) => String(row.id)),
    );
    const left = rows.reduce((sum, row) => {
      if (applied.has(String(row.id))) return sum + row.amount;
      if (row.entry === 'refund' && applied.has(String(row.refund_of))) return sum - row.amount;
      return sum;
    }, 0);
    const amount = this.part > 0 ? Math.max(1, Math.floor(left * this.part)) : undefined;
    const answer = await operatorCall(
      world,
      `/api/admin/payments/${encodeURIComponent(invoice.invoice_id)}/refund`,
      {
        reason: 'Asked by the listener',
        ...(amount === undefined ? {} : { amount }),
      },
    );
    expectNo5xx(answer, String(this));
  }
  toString() {
    return `RefundInConsole(${this.pick}, ${this.part}, ${this.anyInvoice})`;
  }
}

export class AdvanceClock extends Step {
  constructor(readonly seconds: number) {
    super();
  }
  async act(_model: Model, world: World) {
    const answer = await world.t.app.inject({
      method: 'POST',
      url: '/dev/clock',
      payload: { advanceSeconds: this.seconds },
    });
    expect(answer.statusCode, answer.body).toBe(200);
  }
  toString() {
    return `AdvanceClock(${this.seconds})`;
  }
}

/** A checkout younger than this is left to its shopper by the periodic check (billing/jobs.ts). */
const RECONCILE_AFTER_MS = 30_000;

const MAX_PASSES = 8;

/** Whether a job would find work of the run due now: a renewal step, or a receipt to issue or void. */
async function runHasDueWork(world: World): Promise<boolean> {
  const { db } = world.t;
  const ids = world.users.map((user) => user.id);
  const now = world.t.clock.now();
  const renewal = await db
    .selectFrom('subscriptions')
    .select('id')
    .where('owner_id', 'in', ids)
    .where('next_billing_at', '<=', now)
    .executeTakeFirst();
  const receipt = await db
    .selectFrom('ebarimt_receipts as r')
    .innerJoin('payment_invoices as i', 'i.invoice_id', 'r.invoice_id')
    .select('r.invoice_id')
    .where('i.user_id', 'in', ids)
    .where('r.status', 'in', ['pending', 'issuing', 'void_pending', 'voiding'])
    .where('r.next_attempt_at', '<=', now)
    .executeTakeFirst();
  return renewal !== undefined || receipt !== undefined;
}

/**
 * `POST /dev/jobs/run-due` until the work one run makes for the next is done (a renewal's
 * receipt, periods caught up one at a time after a long jump of the clock); then the receipts
 * must have settled, and every QPay payment the periodic check could reach must be known.
 */
export class RunDueJobs extends Step {
  override readonly settles = true;
  async act(_model: Model, world: World) {
    for (let pass = 0; pass === 0 || (pass < MAX_PASSES && (await runHasDueWork(world))); pass++) {
      const ran = await world.t.app.inject({ method: 'POST', url: '/dev/jobs/run-due' });
      expect(ran.statusCode, ran.body).toBe(200);
    }
    // Racing a payment, what the jobs found first is unknown: the lag allowance stays.
    const checkedBefore = world.t.clock.now().getTime() - RECONCILE_AFTER_MS;
    for (const invoiceId of world.racing ? [] : world.unheard) {
      const invoice = await world.t.db
        .selectFrom('payment_invoices')
        .select(['status', 'created_at'])
        .where('invoice_id', '=', invoiceId)
        .executeTakeFirstOrThrow();
      if (invoice.status !== 'created' || invoice.created_at.getTime() <= checkedBefore) {
        world.unheard.delete(invoiceId);
      }
    }
  }
  toString() {
    return 'RunDueJobs()';
  }
}

/**
 * Steps at once, as a double click, two tabs, or a callback racing the shopper's return: the same
 * step twice, or different ones. Then the invariants, as after any step.
 */
export class AtOnce extends Step {
  readonly steps: Step[];
  constructor(...steps: Step[]) {
    super();
    this.steps = steps;
  }
  override check(model: Readonly<Model>) {
    return this.steps.every((step) => step.check(model));
  }
  async act(model: Model, world: World) {
    world.racing = true;
    try {
      await Promise.all(this.steps.map((step) => step.act(model, world)));
    } finally {
      world.racing = false;
    }
  }
  toString() {
    return `AtOnce(${this.steps.join(', ')})`;
  }
}
