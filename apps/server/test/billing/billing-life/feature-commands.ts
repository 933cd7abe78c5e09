import { expect } from 'vitest';
import { DECLINED_CARD, FAILS_LATER_CARD, PAID_CARD, saveCardOnGateway } from '../../helpers/premium.js';
import { periodOf } from './account-commands.js';
import { AnswerAtBank, type CardChoice, PayCardPage } from './payment-commands.js';
import { ListenerStep } from './step.js';
import { cardExpiry, expectNo5xx, headersOf, keepPage, type Model, userAt, type World } from './world.js';

/**
 * The account features of issue 37 as steps of the billing life: pause Premium and resume it,
 * choose how renewals are paid (card or QPay link), replace the card on file through the
 * gateway's save-card page, and pay a renewal's invoice from its link (our /pay page).
 */

const CARDS: Record<CardChoice, string> = {
  paid: PAID_CARD,
  declined: DECLINED_CARD,
  'fails-later': FAILS_LATER_CARD,
};

/** `POST /api/subscriptions/{id}/pause` `{ months }`: refused (409) unless the plan can pause now. */
export class PausePremium extends ListenerStep {
  constructor(
    user: number,
    readonly pick: number,
    readonly months: 1 | 2 | 3,
  ) {
    super(user);
  }
  async act(_model: Model, world: World) {
    const period = await periodOf(world, this.user, this.pick);
    if (!period) return;
    const answer = await world.t.app.inject({
      method: 'POST',
      url: `/api/subscriptions/${period}/pause`,
      headers: await headersOf(world, this.user),
      payload: { months: this.months },
    });
    if (expectNo5xx(answer, String(this)).statusCode !== 200) {
      expect(answer.statusCode, `${this}: ${answer.body}`).toBeOneOf([404, 409]);
      return;
    }
    const pause = answer.json() as { months: number; startsAt: string; resumesAt: string };
    expect(pause, String(this)).toMatchObject({ months: this.months, subscriptionId: period });
    if (world.racing) return;
    // Made: the plan's access ends where the pause starts, and its charge waits for the resumption.
    const plan = await world.t.db
      .selectFrom('subscriptions')
      .select(['end_date', 'next_billing_at'])
      .where('id', '=', period)
      .executeTakeFirstOrThrow();
    expect(
      { endDate: plan.end_date.toISOString(), nextCharge: plan.next_billing_at?.toISOString() },
      String(this),
    ).toEqual({ endDate: pause.startsAt, nextCharge: pause.resumesAt });
  }
  toString() {
    return `PausePremium(${this.user}, ${this.pick}, ${this.months})`;
  }
}

/** `DELETE /api/subscriptions/{id}/pause`: withdraws a pause not begun, or ends one with a charge now. */
export class ResumePremium extends ListenerStep {
  constructor(
    user: number,
    readonly pick: number,
  ) {
    super(user);
  }
  async act(_model: Model, world: World) {
    const period = await periodOf(world, this.user, this.pick);
    if (!period) return;
    const answer = await world.t.app.inject({
      method: 'DELETE',
      url: `/api/subscriptions/${period}/pause`,
      headers: await headersOf(world, this.user),
    });
    expectNo5xx(answer, String(this));
  }
  toString() {
    return `ResumePremium(${this.user}, ${this.pick})`;
  }
}

/** `PUT /api/users/me/renewal-method`: `card` needs a card on file (409 `no_card` without). */
export class ChooseRenewalMethod extends ListenerStep {
  constructor(
    user: number,
    readonly method: 'card' | 'qpay',
  ) {
    super(user);
  }
  async act(_model: Model, world: World) {
    const answer = await world.t.app.inject({
      method: 'PUT',
      url: '/api/users/me/renewal-method',
      headers: await headersOf(world, this.user),
      payload: { method: this.method },
    });
    if (expectNo5xx(answer, String(this)).statusCode !== 204) {
      expect(answer.json(), String(this)).toMatchObject({ error: 'no_card' });
    }
  }
  toString() {
    return `ChooseRenewalMethod(${this.user}, '${this.method}')`;
  }
}

/**
 * The gateway's save-card page (no charge) with a card; the listener comes back through our
 * return, or closes the tab there (the session stays pending: nothing changes on our side).
 */
export class ReplaceCard extends ListenerStep {
  constructor(
    user: number,
    readonly card: CardChoice,
    readonly comeBack: boolean,
  ) {
    super(user);
  }
  async act(_model: Model, world: World) {
    const { t } = world;
    const opened = await t.app.inject({
      method: 'POST',
      url: '/api/users/me/card/replace',
      headers: await headersOf(world, this.user),
    });
    // 429: the listener opened too many pages lately.
    if (expectNo5xx(opened, String(this)).statusCode !== 200) return;
    const back = await saveCardOnGateway(
      t,
      new URL((opened.json() as { url: string }).url),
      CARDS[this.card],
      cardExpiry(t),
    );
    if (!this.comeBack) return;
    const returned = await t.app.inject({ method: 'GET', url: back.pathname + back.search });
    expect(returned.statusCode, `${this}: ${returned.body}`).toBe(303);
    const outcome = this.card === 'declined' ? 'declined' : 'saved';
    expect(returned.headers.location, String(this)).toBe(`/profile?card=${outcome}`);
  }
  toString() {
    return `ReplaceCard(${this.user}, '${this.card}', ${this.comeBack})`;
  }
}

/**
 * The renewal invoice's link (our `/pay/{id}` page, sent to a listener who renews by QPay link
 * or whose card failed): one of the listener's open renewal invoices is paid there, by card or
 * in a bank app (its callback arrives), as the page's own buttons do.
 */
export class PayLinkInvoice extends ListenerStep {
  constructor(
    user: number,
    readonly pick: number,
    readonly method: 'card' | 'qpay',
  ) {
    super(user);
  }
  async act(model: Model, world: World) {
    const open = await world.t.db
      .selectFrom('payment_invoices')
      .select('invoice_id')
      .where('user_id', '=', userAt(world, this.user).id)
      .where('kind', '=', 'renewal')
      .where('status', '=', 'created')
      .orderBy('created_at', 'desc')
      .orderBy('invoice_id', 'desc')
      .execute();
    const invoice = open[this.pick % Math.max(1, open.length)];
    if (!invoice) return;
    const answer = await world.t.app.inject({
      method: 'POST',
      url: `/api/payments/${encodeURIComponent(invoice.invoice_id)}/pay`,
      headers: await headersOf(world, this.user),
      payload: { method: this.method },
    });
    if (expectNo5xx(answer, String(this)).statusCode !== 200) return;
    const body = answer.json();
    keepPage(
      model,
      world,
      invoice.invoice_id,
      this.user,
      this.method === 'card' ? { card: new URL(body.url) } : { qpay: body },
    );
    // The page just kept, as the payment steps pick pages (newest first).
    const index = [...world.pages.entries()]
      .filter(([, pages]) => pages[this.method] !== undefined)
      .reverse()
      .findIndex(([id]) => id === invoice.invoice_id);
    const pay =
      this.method === 'card' ? new PayCardPage(index, 'paid', true) : new AnswerAtBank(index, true, false, 0);
    await pay.act(model, world);
  }
  toString() {
    return `PayLinkInvoice(${this.user}, ${this.pick}, '${this.method}')`;
  }
}
