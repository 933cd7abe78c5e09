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
};
