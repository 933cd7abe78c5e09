import fc from 'fast-check';
import {
  AdvanceClock,
  AtOnce,
  ChangePlan,
  DeleteAccount,
  RefundInConsole,
  RemoveCard,
  RunDueJobs,
  SetAutoRenew,
} from './account-commands.js';
import {
  ChooseRenewalMethod,
  PausePremium,
  PayLinkInvoice,
  ReplaceCard,
  ResumePremium,
} from './feature-commands.js';
import {
  AnswerAtBank,
  type CardChoice,
  CheckoutByCard,
  CheckoutByQpay,
  OpenPayPage,
  PayCardPage,
  type Plan,
  QpayCallbackArrives,
} from './payment-commands.js';
import type { Step } from './step.js';

/** The arbitraries of every step, weighted so a run buys, pays and lives through renewals. */

const user = fc.nat({ max: 2 });
const pick = fc.nat({ max: 7 });
const plan = fc.constantFrom<Plan>('premium', 'duo', 'family');
const HOUR = 3600;
const DAY = 24 * HOUR;
/** 31 s: past the periodic check's grace for a fresh checkout; then hours, days, a month. */
const seconds = fc.constantFrom(31, HOUR, DAY, 3 * DAY, 27 * DAY, 31 * DAY, 31 * DAY);

const checkoutByCard = fc
  .tuple(user, plan, fc.boolean())
  .map(([u, p, save]) => new CheckoutByCard(u, p, save));
const checkoutByQpay = fc.tuple(user, plan).map(([u, p]) => new CheckoutByQpay(u, p));
const openPayPage = fc
  .tuple(user, pick, fc.constantFrom<'card' | 'qpay'>('card', 'qpay'))
  .map(([u, i, method]) => new OpenPayPage(u, i, method));
const payCardPage = fc
  .tuple(pick, fc.constantFrom<CardChoice>('paid', 'paid', 'declined', 'fails-later'), fc.boolean())
  .map(([i, card, back]) => new PayCardPage(i, card, back));
const answerAtBank = fc
  .tuple(pick, fc.constantFrom(true, true, true, false), fc.boolean(), fc.nat({ max: 1 }))
  .map(([i, approve, lose, bank]) => new AnswerAtBank(i, approve, lose, bank));
const qpayCallback = fc.tuple(pick, fc.boolean()).map(([i, twice]) => new QpayCallbackArrives(i, twice));
const changePlan = fc.tuple(user, pick, plan).map(([u, i, p]) => new ChangePlan(u, i, p));
const setAutoRenew = fc.tuple(user, pick, fc.boolean()).map(([u, i, on]) => new SetAutoRenew(u, i, on));
const removeCard = user.map((u) => new RemoveCard(u));
const deleteAccount = user.map((u) => new DeleteAccount(u));
const refund = fc
  .tuple(pick, fc.constantFrom(0, 0, 0.25, 0.5, 0.99), fc.constantFrom(false, false, false, true))
  .map(([i, part, any]) => new RefundInConsole(i, part, any));
/** The newest period mostly: the one a listener pauses or resumes from their profile. */
const newest = fc.constantFrom(0, 0, 0, 1);
const pause = fc
  .tuple(user, newest, fc.constantFrom<1 | 2 | 3>(1, 2, 3))
  .map(([u, i, months]) => new PausePremium(u, i, months));
const resume = fc.tuple(user, newest).map(([u, i]) => new ResumePremium(u, i));
const chooseMethod = fc
  .tuple(user, fc.constantFrom<'card' | 'qpay'>('card', 'card', 'qpay'))
  .map(([u, method]) => new ChooseRenewalMethod(u, method));
const replaceCard = fc
  .tuple(user, fc.constantFrom<CardChoice>('paid', 'paid', 'declined', 'fails-later'), fc.boolean())
  .map(([u, card, back]) => new ReplaceCard(u, card, back));
const payLinkInvoice = fc
  .tuple(user, pick, fc.constantFrom<'card' | 'qpay'>('card', 'qpay'))
  .map(([u, i, method]) => new PayLinkInvoice(u, i, method));
const advanceClock = seconds.map((s) => new AdvanceClock(s));
const runDueJobs = fc.constant(null).map(() => new RunDueJobs());

const weighted = (weight: number, arbitrary: fc.Arbitrary<Step>) => ({ weight, arbitrary });

/** What may happen at the same moment as something else (the clock does not move mid-step). */
const racingStep: fc.Arbitrary<Step> = fc.oneof(
  weighted(4, payCardPage),
  weighted(3, answerAtBank),
  weighted(2, qpayCallback),
  weighted(2, refund),
  weighted(2, changePlan),
  weighted(2, runDueJobs),
  weighted(1, checkoutByCard),
  weighted(1, openPayPage),
  weighted(1, setAutoRenew),
  weighted(1, removeCard),
  weighted(1, deleteAccount),
  weighted(1, pause),
  weighted(1, resume),
  weighted(1, chooseMethod),
  weighted(1, replaceCard),
  weighted(1, payLinkInvoice),
);
/** A double click (the same step twice), or two tabs, a callback and a job at once. */
const atOnce = fc.oneof(
  racingStep.map((step) => new AtOnce(step, step)),
  fc.tuple(racingStep, racingStep).map(([first, second]) => new AtOnce(first, second)),
);

export const stepArbitrary: fc.Arbitrary<Step> = fc.oneof(
  weighted(8, checkoutByCard),
  weighted(6, checkoutByQpay),
  weighted(3, openPayPage),
  weighted(12, payCardPage),
  weighted(8, answerAtBank),
  weighted(2, qpayCallback),
  weighted(6, changePlan),
  weighted(2, setAutoRenew),
  weighted(1, removeCard),
  weighted(1, deleteAccount),
  weighted(3, refund),
  weighted(5, pause),
  weighted(2, resume),
  weighted(2, chooseMethod),
  weighted(2, replaceCard),
  weighted(3, payLinkInvoice),
  weighted(10, advanceClock),
  weighted(8, runDueJobs),
  weighted(5, atOnce),
);
