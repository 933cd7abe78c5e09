import { OTP_TTL_SECONDS, PASSWORD_RESET_TTL_SECONDS } from '@tunes/shared/accounts';

type Lang = 'en' | 'mn';

const minutes = (seconds: number) => Math.round(seconds / 60);

/** Texts of the messages the accounts module sends, in the user's language. */
export const accountMessages = {
  otp: (lang: Lang, code: string) =>
    lang === 'mn'
      ? `Tunes баталгаажуулах код: ${code}. Код ${minutes(OTP_TTL_SECONDS)} минутын турш хүчинтэй.`
      : `Your Tunes code is ${code}. It expires in ${minutes(OTP_TTL_SECONDS)} minutes.`,
  otpSubject: (lang: Lang) => (lang === 'mn' ? 'Tunes баталгаажуулах код' : 'Your Tunes verification code'),
  resetSubject: (lang: Lang) => (lang === 'mn' ? 'Tunes нууц үг сэргээх' : 'Reset your Tunes password'),
  reset: (lang: Lang, link: string) =>
    lang === 'mn'
      ? `Шинэ нууц үг үүсгэхийн тулд энэ холбоосыг нээнэ үү: ${link}\nХолбоос ${minutes(PASSWORD_RESET_TTL_SECONDS)} минутын турш нэг удаа ашиглагдана. Хэрэв та хүсээгүй бол энэ захидлыг үл тоомсорлоно уу.`
      : `Open this link to create a new password: ${link}\nThe link works once within ${minutes(PASSWORD_RESET_TTL_SECONDS)} minutes. If you did not ask for it, ignore this e-mail.`,
};
