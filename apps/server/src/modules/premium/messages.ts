import type { Lang } from '../../lib/message-language.js';

export interface Amount {
  amount: number;
  currency: string;
}

/** Formatters by language and currency: making one costs far more than using it. */
const moneyFormats = new Map<string, Intl.NumberFormat>();

export function money(lang: Lang, { amount, currency }: Amount): string {
  const key = `${lang}:${currency}`;
  let format = moneyFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(lang === 'mn' ? 'mn-MN' : 'en-US', {
      style: 'currency',
      currency,
      currencyDisplay: 'narrowSymbol',
      maximumFractionDigits: 0,
    });
    moneyFormats.set(key, format);
  }
  return format.format(amount);
}

/** Texts of the messages about a subscriber's Premium that payments send, in their language. */
export const premiumMessages = {
  /** The subject of every Premium message by e-mail (premium/notices.ts). */
  subject: (lang: Lang) => (lang === 'mn' ? 'Tunes Premium' : 'Tunes Premium'),
  /** A payment we could not use (already paid another way, expired, a past period): given back. */
  surplusRefunded: (lang: Lang, price: Amount) =>
    lang === 'mn'
      ? `Бид таны ${money(lang, price)} төлбөрийг буцаан олголоо: энэ нэхэмжлэл өөр аргаар төлөгдсөн эсвэл хүчингүй болсон байсан. Мөнгө 3-10 хоногт таны данс руу орно.`
      : `We refunded your payment of ${money(lang, price)}: this invoice had already been paid another way or was no longer open. The money reaches your account in 3-10 days.`,
};
