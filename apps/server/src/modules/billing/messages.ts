import type { Lang } from '../accounts/messages.js';

export interface Amount {
  amount: number;
  currency: string;
}

const money = (lang: Lang, { amount, currency }: Amount) =>
  new Intl.NumberFormat(lang === 'mn' ? 'mn-MN' : 'en-US', {
    style: 'currency',
    currency,
    currencyDisplay: 'narrowSymbol',
    maximumFractionDigits: 0,
  }).format(amount);

/** Dates in messages read the same in every runtime: 2026-12-24. */
const day = (date: Date) => date.toISOString().slice(0, 10);

/** Texts of the billing lifecycle's messages (product.md §12), in the subscriber's language. */
export const billingMessages = {
  subject: (lang: Lang) => (lang === 'mn' ? 'Tunes Premium' : 'Tunes Premium'),
  reminderCard: (lang: Lang, plan: string, price: Amount, on: Date, card: string) =>
    lang === 'mn'
      ? `Таны ${plan} багц ${day(on)}-нд сунгагдана. Хадгалсан картаас (${card}) ${money(lang, price)} татагдана. Цуцлах бол Профайл хэсэгт орно уу.`
      : `Your ${plan} renews on ${day(on)}. We will charge ${money(lang, price)} to your saved card (${card}). To cancel, open your profile.`,
  reminderLink: (lang: Lang, plan: string, price: Amount, on: Date, link: string) =>
    lang === 'mn'
      ? `Таны ${plan} багц ${day(on)}-нд дуусна. Сунгахын тулд ${money(lang, price)} төлнө үү: ${link}`
      : `Your ${plan} ends on ${day(on)}. To keep listening, pay ${money(lang, price)} here: ${link}`,
  charged: (lang: Lang, plan: string, price: Amount, until: Date) =>
    lang === 'mn'
      ? `Таны ${plan} багц сунгагдлаа: ${money(lang, price)} төлөгдсөн. ${day(until)} хүртэл хүчинтэй. Баримт Профайл хэсэгт байна.`
      : `Your ${plan} renewed: ${money(lang, price)} paid. It runs until ${day(until)}. Your receipt is in your profile.`,
  chargeFailed: (lang: Lang, plan: string, price: Amount, retryOn: Date, link: string) =>
    lang === 'mn'
      ? `${plan} багцын ${money(lang, price)} төлбөр таны картаас татагдсангүй. Бид ${day(retryOn)}-нд дахин оролдоно; сонсох эрх тань хэвээр. Одоо төлөх: ${link}`
      : `We could not charge ${money(lang, price)} for your ${plan}. We will try again on ${day(retryOn)} and you keep listening meanwhile. Pay now: ${link}`,
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
      ? `Таны багц ${day(on)}-нд ${plan} болж өөрчлөгдөнө.`
      : `Your plan changes to ${plan} on ${day(on)}.`,
  seatEnding: (lang: Lang, on: Date) =>
    lang === 'mn'
      ? `Таны хамрагдаж буй Tunes багцын суудал цөөрсөн тул ${day(on)}-нд таны эрх дуусна.`
      : `The Tunes plan you share is getting fewer seats: your place on it ends on ${day(on)}.`,
};
