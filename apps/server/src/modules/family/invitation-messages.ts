import type { Lang } from '../../lib/message-language.js';

/** Texts of an invitation an owner sends by SMS or e-mail (issue 37), in the owner's language. */
export const invitationMessages = {
  subject: (lang: Lang, who: string | null) =>
    lang === 'mn'
      ? `${who ? `${who} таныг` : 'Таныг'} Tunes Премиум багцдаа урьж байна`
      : `${who ?? 'Someone'} invited you to their Tunes Premium plan`,
  /**
   * `who`: the owner's first name, else their number; `until`: the link's last day as the
   * recipient reads it. The spec's rules: one person, once, within 5 days, with no Premium of
   * their own.
   */
  text: (lang: Lang, who: string | null, until: string, link: string) =>
    lang === 'mn'
      ? `${who ? `${who} таныг` : 'Таныг'} хуваалцсан Tunes Премиум багцдаа урьж байна. Нэвтэрч, урилгыг хүлээн авна уу: ${link} Холбоос ${until} хүртэл хүчинтэй, нэг хүнд зориулагдсан бөгөөд нэг удаа ашиглагдана; өөрийн идэвхтэй захиалгатай бол эхлээд цуцлах шаардлагатай.`
      : `${who ?? 'Someone'} invited you to share their Tunes Premium plan. Sign in and accept by ${until}: ${link} The link is for one person and works once; if you have a subscription of your own, cancel it first.`,
};
