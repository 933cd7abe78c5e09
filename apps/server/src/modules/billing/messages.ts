import { messageDate } from '../../lib/message-date.js';
import type { Lang } from '../../lib/message-language.js';
import { type Amount, money } from '../premium/messages.js';

/** The plan of a trial's free days and the plan its first renewal pays for, by name. */
export interface TrialPlans {
  trial: string;
  next: string;
}

/** Texts of the billing lifecycle's messages (product.md §12), in the subscriber's language. */
export const billingMessages = {
  reminderCard: (lang: Lang, plan: string, price: Amount, on: Date, card: string) =>
    lang === 'mn'
      ? `Таны ${plan} багц ${messageDate(on, lang)}-нд сунгагдана. Хадгалсан картаас (${card}) ${money(lang, price)} татагдана. Цуцлах бол Профайл хэсэгт орно уу.`
      : `Your ${plan} renews on ${messageDate(on, lang)}. We will charge ${money(lang, price)} to your saved card (${card}). To cancel, open your profile.`,
  reminderLink: (lang: Lang, plan: string, price: Amount, on: Date, link: string) =>
    lang === 'mn'
      ? `Таны ${plan} багц ${messageDate(on, lang)}-нд дуусна. Сунгахын тулд ${money(lang, price)} төлнө үү: ${link}`
      : `Your ${plan} ends on ${messageDate(on, lang)}. To keep listening, pay ${money(lang, price)} here: ${link}`,
  // A plan chosen in the free days waits for their end (trials/): the trial keeps its plan's
  // name, and the charge names the plan it pays for when that is another.
  trialEndsCard: (lang: Lang, plans: TrialPlans, price: Amount, on: Date, card: string, profile: string) =>
    lang === 'mn'
      ? `Таны ${plans.trial} багцын үнэгүй туршилт ${messageDate(on, lang)}-нд дуусна. Дараа нь хадгалсан картаас (${card}) ${plans.next === plans.trial ? '' : `${plans.next} багцын `}${money(lang, price)} татагдана. Төлбөр төлөхгүй бол түүнээс өмнө Профайл хэсгээс цуцлаарай: ${profile}`
      : `Your free ${plans.trial} trial ends on ${messageDate(on, lang)}. Then we will charge ${money(lang, price)}${plans.next === plans.trial ? '' : ` for ${plans.next}`} to your saved card (${card}). To pay nothing, cancel on your profile before then: ${profile}`,
  trialEndsLink: (lang: Lang, plans: TrialPlans, price: Amount, on: Date, link: string) =>
    lang === 'mn'
      ? `Таны ${plans.trial} багцын үнэгүй туршилт ${messageDate(on, lang)}-нд дуусна. Үргэлжлүүлэн сонсох бол ${plans.next === plans.trial ? '' : `${plans.next} багцын `}${money(lang, price)} төлнө үү: ${link} Төлбөр төлөхгүй бол юу ч хийх шаардлагагүй, эсвэл Профайл хэсгээс цуцлаарай.`
      : `Your free ${plans.trial} trial ends on ${messageDate(on, lang)}. To keep listening, pay ${money(lang, price)}${plans.next === plans.trial ? '' : ` for ${plans.next}`} here: ${link} To pay nothing, do nothing or cancel on your profile.`,
  chargeFailed: (lang: Lang, plan: string, price: Amount, retryOn: Date, accessUntil: Date, link: string) =>
    lang === 'mn'
      ? `${plan} багцын ${money(lang, price)} төлбөр таны картаас татагдсангүй. Бид ${messageDate(retryOn, lang)}-нд дахин оролдоно; сонсох эрх тань ${messageDate(accessUntil, lang)} хүртэл хэвээр. Одоо төлөх: ${link}`
      : `We could not charge ${money(lang, price)} for your ${plan}. We will try again on ${messageDate(retryOn, lang)} and you keep listening until ${messageDate(accessUntil, lang)}. Pay now: ${link}`,
  lapsed: (lang: Lang, plan: string, link: string) =>
    lang === 'mn'
      ? `Таны ${plan} багц төлбөр төлөгдөөгүй тул дууслаа. Дахин идэвхжүүлэх: ${link}`
      : `Your ${plan} has ended because its renewal was not paid. Come back any time: ${link}`,
  upgraded: (lang: Lang, plan: string, price: Amount) =>
    lang === 'mn'
      ? `Таны багц ${plan} болж шинэчлэгдлээ. Зөрүү ${money(lang, price)} төлөгдсөн.`
      : `Your plan is now ${plan}. The difference of ${money(lang, price)} was paid.`,
  downgradeScheduled: (lang: Lang, plan: string, on: Date) =>
    lang === 'mn'
      ? `Таны багц ${messageDate(on, lang)}-нд ${plan} болж өөрчлөгдөнө.`
      : `Your plan changes to ${plan} on ${messageDate(on, lang)}.`,
  receipt: (lang: Lang, plan: string, price: Amount, link: string) =>
    lang === 'mn'
      ? `${plan} багцын ${money(lang, price)} төлбөрийн баримт: ${link}`
      : `Your receipt for ${plan} (${money(lang, price)}): ${link}`,
  seatEnding: (lang: Lang, on: Date) =>
    lang === 'mn'
      ? `Таны хамрагдаж буй Tunes багцын суудал цөөрсөн тул ${messageDate(on, lang)}-нд таны эрх дуусна.`
      : `The Tunes plan you share is getting fewer seats: your place on it ends on ${messageDate(on, lang)}.`,
};
