import { REMINDER_DAYS_BEFORE } from '@tunes/shared/billing';
import { messageDate } from '../../lib/message-date.js';
import type { Lang } from '../../lib/message-language.js';
import { type Amount, money } from '../premium/messages.js';

/** "₮6,900 a month" / "сар бүр ₮6,900": a plan's price for each of its periods. */
function perPeriod(lang: Lang, price: Amount, months: number): string {
  const amount = money(lang, price);
  if (lang === 'mn') {
    if (months === 12) return `жил бүр ${amount}`;
    return months === 1 ? `сар бүр ${amount}` : `${months} сар тутам ${amount}`;
  }
  if (months === 12) return `${amount} a year`;
  return months === 1 ? `${amount} a month` : `${amount} every ${months} months`;
}

/** What a trial's plan is called and costs after the free days. */
export interface TrialPlan {
  plan: string;
  price: Amount;
  months: number;
}

/** A plan row as the trial's messages name and price it. */
export const trialPlanOf = (
  plan: { name_en: string; name_mn: string; cost: number; currency: string; duration_months: number },
  lang: Lang,
): TrialPlan => ({
  plan: lang === 'mn' ? plan.name_mn : plan.name_en,
  price: { amount: plan.cost, currency: plan.currency },
  months: plan.duration_months,
});

/** Texts of the messages about a first-time trial (decision 0045), in the account's language. */
export const trialMessages = {
  /** The trial began with a saved card: its end, the charge after it, how to pay nothing. */
  startedCard: (lang: Lang, what: TrialPlan, until: Date, card: string, profile: string) =>
    lang === 'mn'
      ? `Таны ${what.plan} багцын үнэгүй туршилт эхэллээ: ${messageDate(until, lang)} хүртэл үнэгүй. Дараа нь таны картаас (${card}) ${perPeriod(lang, what.price, what.months)} татагдана. Төлбөр төлөхгүй бол түүнээс өмнө Профайл хэсгээс цуцлаарай: ${profile}`
      : `Your free ${what.plan} trial has started: free until ${messageDate(until, lang)}. Then ${perPeriod(lang, what.price, what.months)}, charged to your card (${card}). To pay nothing, cancel on your profile before then: ${profile}`,
  /** The trial began renewed by a QPay link: the link comes before the end; unpaid, nothing is owed. */
  startedQpay: (lang: Lang, what: TrialPlan, until: Date, profile: string) =>
    lang === 'mn'
      ? `Таны ${what.plan} багцын үнэгүй туршилт эхэллээ: ${messageDate(until, lang)} хүртэл үнэгүй. Дараа нь QPay холбоосоор ${perPeriod(lang, what.price, what.months)} төлнө; холбоосыг туршилт дуусахаас ${REMINDER_DAYS_BEFORE} хоногийн өмнө илгээнэ. Төлбөр төлөхгүй бол холбоосыг бүү төлөөрэй, эсвэл Профайл хэсгээс цуцлаарай: ${profile}`
      : `Your free ${what.plan} trial has started: free until ${messageDate(until, lang)}. Then ${perPeriod(lang, what.price, what.months)} by a QPay link we send you ${REMINDER_DAYS_BEFORE} days before. To pay nothing, don't pay the link or cancel on your profile: ${profile}`,
  /** A plan change in the free days: the new plan at once, still free to the same end. */
  planChanged: (lang: Lang, what: TrialPlan, until: Date) =>
    lang === 'mn'
      ? `Таны багц ${what.plan} болж шинэчлэгдлээ. Үнэгүй туршилт ${messageDate(until, lang)} хүртэл үргэлжилнэ; дараа нь ${perPeriod(lang, what.price, what.months)}. Одоо юу ч төлөхгүй.`
      : `Your plan is now ${what.plan}. Your free trial continues until ${messageDate(until, lang)}; then ${perPeriod(lang, what.price, what.months)}. Nothing is charged now.`,
};
