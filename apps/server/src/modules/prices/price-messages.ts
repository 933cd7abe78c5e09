import { messageDate } from '../../lib/message-date.js';
import type { Lang } from '../../lib/message-language.js';
import { type Amount, money } from '../premium/messages.js';

/** The two messages of a price rise (price-notices.ts), in the subscriber's language. */
export const priceMessages = {
  scheduled: (lang: Lang, plan: string, was: Amount, price: Amount, from: Date) =>
    lang === 'mn'
      ? `Таны ${plan} багцын үнэ ${money(lang, was)}-өөс ${money(lang, price)} болж өөрчлөгдөнө. ${messageDate(from, lang)}-ний сунгалтаас эхлэн шинэ үнээр төлнө. Түүнээс өмнө Профайл хэсэгт багцаа цуцлах эсвэл солих боломжтой.`
      : `The price of your ${plan} changes from ${money(lang, was)} to ${money(lang, price)}. You pay the new price from your renewal on ${messageDate(from, lang)}. Until then you can cancel or change your plan in your profile.`,
  reminder: (lang: Lang, plan: string, was: Amount, price: Amount, on: Date) =>
    lang === 'mn'
      ? `Сануулга: ${messageDate(on, lang)}-нд таны ${plan} багц шинэ үнээр ${money(lang, price)} (өмнө нь ${money(lang, was)}) сунгагдана. Цуцлах эсвэл багц солих бол түүнээс өмнө Профайл хэсэгт орно уу.`
      : `Reminder: on ${messageDate(on, lang)} your ${plan} renews at its new price of ${money(lang, price)} (was ${money(lang, was)}). To cancel or change your plan before then, open your profile.`,
};
