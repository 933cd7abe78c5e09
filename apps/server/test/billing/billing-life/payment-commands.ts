import { PLAN_CODES } from '../../helpers/factories.js';
import {
  checkout,
  DECLINED_CARD,
  FAILS_LATER_CARD,
  openGatewayPage,
  PAID_CARD,
  postGatewayForm,
  returnToShop,
} from '../../helpers/premium.js';
import { loseCallbacks, type QpayAnswer, qpayCallback } from '../../helpers/qpay-factories.js';
import { ListenerStep, Step } from './step.js';
import {
  cardExpiry,
  expectNo5xx,
  headersOf,
  keepPage,
  type Model,
  pageAt,
  userAt,
  type World,
} from './world.js';

/**
 * What a listener's browser and phone do with payments: check out by card or QPay, open an
 * invoice's other page, pay (or decline) a card page, answer a bank app, and QPay's callbacks.
 * Every command is an HTTP call as a browser or provider makes it, then the invariants.
 */

export type Plan = keyof typeof PLAN_CODES;
export type CardChoice = 'paid' | 'declined' | 'fails-later';
const CARDS: Record<CardChoice, string> = {
  paid: PAID_CARD,
  declined: DECLINED_CARD,
  'fails-later': FAILS_LATER_CARD,
};
/** QPay checks an invoice at most once per 2 s per kind of asker (premium/invoice-view.ts). */
const CALLBACK_WINDOW_MS = 2000;

const invoiceStatus = async (world: World, invoiceId: string) =>
  (
    await world.t.db
      .selectFrom('payment_invoices')
      .select('status')
      .where('invoice_id', '=', invoiceId)
      .executeTakeFirstOrThrow()
  ).status;

export class CheckoutByCard extends ListenerStep {
  constructor(
    user: number,
    readonly plan: Plan,
    readonly saveCard: boolean,
  ) {
    super(user);
  }
  async act(model: Model, world: World) {
    const headers = await headersOf(world, this.user);
    const answer = await checkout(world.t, headers, {
      MerchantCode: PLAN_CODES[this.plan],
      saveCard: this.saveCard,
    });
    if (expectNo5xx(answer, String(this)).statusCode !== 200) return;
    const { url, invoiceId } = answer.json() as { url: string; invoiceId: string };
    keepPage(model, world, invoiceId, this.user, { card: new URL(url) });
  }
  toString() {
    return `CheckoutByCard(${this.user}, '${this.plan}', ${this.saveCard})`;
  }
}

export class CheckoutByQpay extends ListenerStep {
  constructor(
    user: number,
    readonly plan: Plan,
  ) {
    super(user);
  }
  async act(model: Model, world: World) {
    const headers = await headersOf(world, this.user);
    const answer = await checkout(world.t, headers, { MerchantCode: PLAN_CODES[this.plan], method: 'qpay' });
    if (expectNo5xx(answer, String(this)).statusCode !== 200) return;
    const qpay = answer.json() as QpayAnswer;
    keepPage(model, world, qpay.invoiceId, this.user, { qpay });
  }
  toString() {
    return `CheckoutByQpay(${this.user}, '${this.plan}')`;
  }
}

/** `POST /api/payments/{id}/pay`: the card or QPay page of one of the listener's invoices (newest first). */
export class OpenPayPage extends ListenerStep {
  constructor(
    user: number,
    readonly pick: number,
    readonly method: 'card' | 'qpay',
  ) {
    super(user);
  }
  async act(model: Model, world: World) {
    const { id } = userAt(world, this.user);
    const invoices = await world.t.db
      .selectFrom('payment_invoices')
      .select('invoice_id')
      .where('user_id', '=', id)
      .orderBy('created_at', 'desc')
      .orderBy('invoice_id', 'desc')
      .execute();
    const invoice = invoices[this.pick % Math.max(1, invoices.length)];
    if (!invoice) return;
    const answer = await world.t.app.inject({
      method: 'POST',
      url: `/api/payments/${encodeURIComponent(invoice.invoice_id)}/pay`,
      headers: await headersOf(world, this.user),
      payload: { method: this.method },
    });
    if (expectNo5xx(answer, String(this)).statusCode !== 200) return;
    const body = answer.json() as { method: 'card'; url: string } | QpayAnswer;
    keepPage(
      model,
      world,
      invoice.invoice_id,
      this.user,
      body.method === 'card' ? { card: new URL(body.url) } : { qpay: body },
    );
  }
  toString() {
    return `OpenPayPage(${this.user}, ${this.pick}, '${this.method}')`;
  }
}

/**
 * Opens a card page the run was shown and submits a card (a closed page answers 409: fine);
 * the shopper comes back through the return, or only the gateway's signed callback arrives.
 */
export class PayCardPage extends Step {
  constructor(
    readonly pick: number,
    readonly card: CardChoice,
    readonly comeBack: boolean,
  ) {
    super();
  }
  override check(model: Readonly<Model>) {
    return model.cardPages > 0;
  }
  async act(_model: Model, world: World) {
    const page = pageAt(world, 'card', this.pick);
    if (!page?.card) return;
    const { t } = world;
    const opened = await openGatewayPage(t, page.card);
    if (expectNo5xx(opened.page, `${this} page`).statusCode !== 200) return;
    const posted = await postGatewayForm(t, 'pay', {
      token: opened.token,
      form_key: opened.formKey,
      card_number: CARDS[this.card],
      expiry: cardExpiry(t),
      cvc: '123',
    });
    if (expectNo5xx(posted, String(this)).statusCode !== 303 || !this.comeBack) return;
    await returnToShop(t, new URL(String(posted.headers.location)));
  }
  toString() {
    return `PayCardPage(${this.pick}, '${this.card}', ${this.comeBack})`;
  }
}

/**
 * A bank app answers a QPay page of the run; its callback may be lost on the way. Whether the
 * server can know of the payment before the periodic check is noted for invariant 1.
 */
export class AnswerAtBank extends Step {
  constructor(
    readonly pick: number,
    readonly approve: boolean,
    readonly loseCallback: boolean,
    readonly bank: number,
  ) {
    super();
  }
  override check(model: Readonly<Model>) {
    return model.qpayPages > 0;
  }
  async act(_model: Model, world: World) {
    const page = pageAt(world, 'qpay', this.pick);
    if (!page?.qpay) return;
    const { t } = world;
    const { invoiceId } = page;
    const statusBefore = await invoiceStatus(world, invoiceId);
    if (this.loseCallback) {
      await loseCallbacks(t, invoiceId);
      world.lostCallbacks.add(invoiceId);
    }
    const link = new URL(page.qpay.deeplinks[this.bank]?.link ?? '');
    const bankPage = await t.app.inject({ method: 'GET', url: link.pathname + link.search });
    if (expectNo5xx(bankPage, `${this} bank page`).statusCode !== 200) return;
    // As answerAtBank, but a page closed meanwhile (a payment at once) answers 409: fine.
    const hidden = (name: string) =>
      new RegExp(`name="${name}" value="([^"]+)"`).exec(bankPage.body)?.[1] ?? '';
    const answered = await t.app.inject({
      method: 'POST',
      url: `${link.pathname}/${this.approve ? 'approve' : 'decline'}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ invoice: hidden('invoice'), form_key: hidden('form_key') }).toString(),
    });
    if (expectNo5xx(answered, String(this)).statusCode !== 200 || !this.approve) return;
    const now = t.clock.now().getTime();
    const last = world.lastCallbackAt.get(invoiceId);
    const throttled = last !== undefined && now - last < CALLBACK_WINDOW_MS;
    const arrives = !world.lostCallbacks.has(invoiceId);
    if (arrives) world.lastCallbackAt.set(invoiceId, now);
    // A callback only makes the server check an open invoice, at most once per window; in a
    // race the invoice may close while it arrives.
    if (!arrives || throttled || statusBefore !== 'created' || world.racing) world.unheard.add(invoiceId);
  }
  toString() {
    return `AnswerAtBank(${this.pick}, ${this.approve}, ${this.loseCallback}, ${this.bank})`;
  }
}

/** QPay's callback for a page of the run arriving (again, or late), once or twice. */
export class QpayCallbackArrives extends Step {
  constructor(
    readonly pick: number,
    readonly twice: boolean,
  ) {
    super();
  }
  override check(model: Readonly<Model>) {
    return model.qpayPages > 0;
  }
  async act(_model: Model, world: World) {
    const page = pageAt(world, 'qpay', this.pick);
    if (!page) return;
    const { invoiceId } = page;
    const statusBefore = await invoiceStatus(world, invoiceId);
    const now = world.t.clock.now().getTime();
    const last = world.lastCallbackAt.get(invoiceId);
    expectNo5xx(await qpayCallback(world.t, invoiceId), String(this));
    if (this.twice) expectNo5xx(await qpayCallback(world.t, invoiceId, 'POST'), String(this));
    world.lastCallbackAt.set(invoiceId, now);
    // The server asked QPay: whatever was paid is known from here on.
    const asked = statusBefore === 'created' && (last === undefined || now - last >= CALLBACK_WINDOW_MS);
    if (asked && !world.racing) {
      world.unheard.delete(invoiceId);
    }
  }
  toString() {
    return `QpayCallbackArrives(${this.pick}, ${this.twice})`;
  }
}
