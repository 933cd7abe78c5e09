export type Lang = 'en' | 'mn';

/** Texts of the messages the family module sends, in the recipient's language. */
export const familyMessages = {
  memberLeftSubject: (lang: Lang) =>
    lang === 'mn' ? 'Tunes багцаас гишүүн гарлаа' : 'A member left your Tunes plan',
  /** To the owner: `who` is the member's first name, else their number, else nothing. */
  memberLeft: (lang: Lang, who: string | null) =>
    lang === 'mn'
      ? `${who ?? 'Нэг гишүүн'} таны хуваалцсан Tunes багцаас гарлаа. Суудал чөлөөлөгдсөн тул профайлаасаа өөр хүн урьж болно.`
      : `${who ?? 'A member'} left your shared Tunes plan. Their seat is free again: you can invite someone else from your profile.`,
  memberRemovedSubject: (lang: Lang) =>
    lang === 'mn' ? 'Таны Tunes Премиум эрх дууслаа' : 'Your Tunes Premium has ended',
  /** To a member the owner removed: `who` is the owner's first name, else their number. */
  memberRemoved: (lang: Lang, who: string | null, link: string) =>
    lang === 'mn'
      ? `${who ? `${who} таныг` : 'Багцын эзэмшигч таныг'} хуваалцсан Tunes багцаасаа хаслаа, тиймээс таны Премиум эрх дууслаа. Өөрийн Премиумаа авах: ${link}`
      : `${who ?? 'The owner'} removed you from their shared Tunes plan, so your Premium has ended. Get Premium of your own: ${link}`,
};
