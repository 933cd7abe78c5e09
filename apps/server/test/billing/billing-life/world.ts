import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { totpCode } from '../../../src/modules/console/totp.js';
import {
  consoleCall,
  OPERATOR_PASSWORD,
  sessionCookie,
  signedInOperator,
  signInCall,
} from '../../helpers/console.js';
import { createUser, siteHeaders } from '../../helpers/factories.js';
import type { QpayAnswer } from '../../helpers/qpay-factories.js';
import type { TestApp } from '../../helpers/test-app.js';

/**
 * The model-based billing test's two halves (fast-check's `model` and `real`): what a command
 * needs to choose what to do (the model), and the app with what the run's browsers hold (the
 * world): its listeners, the payment pages they were shown, and what the server cannot have
 * heard of yet.
 */

export interface Model {
  users: { deleted: boolean }[];
  cardPages: number;
  qpayPages: number;
}

/** The pages a listener was answered for one invoice, as their browser keeps them. */
export interface Pages {
  user: number;
  card?: URL;
  qpay?: QpayAnswer;
}

/** An admin of the console, signed in again when the clock has outrun its session. */
export interface Operator {
  email: string;
  secret: string;
  cookie: string;
}

export interface StepCount {
  count: number;
  kinds: Map<string, number>;
  /** Every run's listeners, for the summary of what the runs reached. */
  users: string[];
}

export interface World {
  t: TestApp;
  operator: Operator;
  /** The run's listeners; every check is scoped to them (earlier runs' data stays in the database). */
  users: { id: string; password: string }[];
  pages: Map<string, Pages>;
  /**
   * Invoices with a QPay payment the server may not know of until the periodic check: its
   * callback was lost, throttled (one check per invoice per 2 s) or came for a closed invoice,
   * which a callback never reopens. The books may lag the provider on these only.
   */
  unheard: Set<string>;
  /** QPay invoices whose callback goes nowhere (`loseCallbacks`), for good. */
  lostCallbacks: Set<string>;
  /** Business time of the latest QPay callback per invoice (its 2 s throttle). */
  lastCallbackAt: Map<string, number>;
  /** Two steps are under way at once (`AtOnce`): what the server heard first is a race. */
  racing: boolean;
  /**
   * Pauses seen in force after a step (`subscriptionId|startsAt`): the latest business time at
   * which the plan was paused (the pause begun, its resumption not yet come). No card may be
   * charged for the plan from the pause's start to then.
   */
  pausedUntilSeen: Map<string, number>;
  /** Listeners seen renewing by QPay link, since when (business ms): their renewals take no card. */
  byLinkSince: Map<string, number>;
  /** Commands run, across runs (the steps of the long run), and how many of each kind. */
  steps: StepCount;
}

/** A 5xx is a failure of the product whatever the command; a 4xx is a refusal, which is fine. */
export function expectNo5xx(response: LightMyRequestResponse, what: string): LightMyRequestResponse {
  expect(response.statusCode, `${what}: ${response.body}`).toBeLessThan(500);
  return response;
}

/** The site's headers for a run listener, signed now (the clock moves, tokens expire). */
export const headersOf = (world: World, user: number) => siteHeaders(world.t, userAt(world, user).id);

export function userAt(world: World, user: number) {
  const found = world.users[user % world.users.length];
  if (!found) throw new Error('a run has no listeners');
  return found;
}

/** A card's expiry a few years from the business clock, which runs far ahead in a long run. */
export function cardExpiry(t: TestApp): string {
  const year = t.clock.now().getUTCFullYear() + 4;
  return `12/${String(year % 100).padStart(2, '0')}`;
}

export async function signInOperator(t: TestApp): Promise<Operator> {
  const { email, secret, cookie } = await signedInOperator(t, 'admin');
  return { email, secret, cookie };
}

/** A console call as the operator; signs in again once when the session has ended. */
export async function operatorCall(world: World, url: string, payload: unknown) {
  const call = () => consoleCall(world.t, world.operator.cookie, 'POST', url, payload);
  const answer = await call();
  if (answer.statusCode !== 401) return answer;
  const again = await signInCall(world.t, {
    email: world.operator.email,
    password: OPERATOR_PASSWORD,
    code: await totpCode(world.operator.secret, world.t.clock.now()),
  });
  // Two refunds at once may both sign in with the same code, which is taken once: the other is refused.
  if (again.statusCode !== 200 && world.racing) return answer;
  expect(again.statusCode, again.body).toBe(200);
  world.operator.cookie = sessionCookie(again.headers['set-cookie']);
  return call();
}

/** A fresh world of `listeners` users, each with a password to delete the account with. */
export async function newWorld(
  t: TestApp,
  operator: Operator,
  listeners: number,
  passwordHash: string,
  steps: StepCount,
): Promise<{ model: Model; real: World }> {
  const users = [];
  for (let i = 0; i < listeners; i++) {
    const user = await createUser(t.db, {
      first_name: 'Model',
      last_name: `Listener${i}`,
      password_hash: passwordHash,
    });
    users.push({ id: user.id, password: MODEL_PASSWORD });
    steps.users.push(user.id);
  }
  return {
    model: { users: users.map(() => ({ deleted: false })), cardPages: 0, qpayPages: 0 },
    real: {
      t,
      operator,
      users,
      pages: new Map(),
      unheard: new Set(),
      lostCallbacks: new Set(),
      lastCallbackAt: new Map(),
      racing: false,
      pausedUntilSeen: new Map(),
      byLinkSince: new Map(),
      steps,
    },
  };
}

export const MODEL_PASSWORD = 'a long enough password';

/**
 * After a run: its periods stop renewing, so later runs' due jobs do not carry every earlier
 * listener's renewals (cleaning up after, as factories do; nothing of the run is checked again).
 */
export async function retireWorld(world: World) {
  const ids = world.users.map((user) => user.id);
  if (ids.length === 0) return;
  await world.t.db
    .updateTable('subscriptions')
    .set({ is_auto_renew: false, next_billing_at: null })
    .where('owner_id', 'in', ids)
    .execute();
}

/** Records a page the server answered, so later commands can open it. */
export function keepPage(
  model: Model,
  world: World,
  invoiceId: string,
  user: number,
  page: Omit<Pages, 'user'>,
) {
  const pages = world.pages.get(invoiceId) ?? { user };
  if (page.card && !pages.card) model.cardPages++;
  if (page.qpay && !pages.qpay) model.qpayPages++;
  world.pages.set(invoiceId, { ...pages, ...page });
}

/** The `pick`th of the run's pages of a kind, newest first (the one just shown is the likeliest paid). */
export function pageAt(world: World, kind: 'card' | 'qpay', pick: number) {
  const candidates = [...world.pages.entries()].filter(([, pages]) => pages[kind] !== undefined).reverse();
  const chosen = candidates[pick % Math.max(1, candidates.length)];
  return chosen ? { invoiceId: chosen[0], ...chosen[1] } : undefined;
}
