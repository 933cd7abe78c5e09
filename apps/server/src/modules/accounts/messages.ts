import { OTP_TTL_SECONDS, PASSWORD_RESET_TTL_SECONDS } from '@tunes/shared/accounts';

import type { Lang } from '../../lib/message-language.js';

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
  emailChangeSubject: (lang: Lang) =>
    lang === 'mn' ? 'Tunes имэйл хаягаа баталгаажуулна уу' : 'Confirm your new Tunes e-mail address',
  emailChangeCode: (lang: Lang, code: string) =>
    lang === 'mn'
      ? `Энэ хаягийг Tunes бүртгэлдээ ашиглахын тулд кодоо оруулна уу: ${code}. Код ${minutes(OTP_TTL_SECONDS)} минутын турш хүчинтэй. Хэрэв та хүсээгүй бол энэ захидлыг үл тоомсорлоно уу.`
      : `Enter this code to use this address for your Tunes account: ${code}. It expires in ${minutes(OTP_TTL_SECONDS)} minutes. If you did not ask for it, ignore this e-mail.`,
  emailChangedSubject: (lang: Lang) =>
    lang === 'mn' ? 'Tunes имэйл хаяг солигдлоо' : 'Your Tunes e-mail address was changed',
  emailChanged: (lang: Lang, newEmail: string) =>
    lang === 'mn'
      ? `Таны Tunes бүртгэлийн имэйл хаяг ${newEmail} болж солигдлоо. Хэрэв та үүнийг хийгээгүй бол нууц үгээ даруй сэргээж, бидэнтэй холбогдоно уу.`
      : `The e-mail address of your Tunes account was changed to ${newEmail}. If this was not you, reset your password now and contact us.`,
  phoneChangeCode: (lang: Lang, code: string) =>
    lang === 'mn'
      ? `Энэ дугаарыг Tunes бүртгэлдээ ашиглахын тулд кодоо оруулна уу: ${code}. Код ${minutes(OTP_TTL_SECONDS)} минутын турш хүчинтэй. Хэрэв та хүсээгүй бол энэ мессежийг үл тоомсорлоно уу.`
      : `Enter this code to use this number for your Tunes account: ${code}. It expires in ${minutes(OTP_TTL_SECONDS)} minutes. If you did not ask for it, ignore this message.`,
  phoneChangedSubject: (lang: Lang) =>
    lang === 'mn' ? 'Tunes утасны дугаар солигдлоо' : 'Your Tunes phone number was changed',
  /** Told to the old number: only the new one's last digits, as the old one may change hands. */
  phoneChanged: (lang: Lang, lastDigits: string) =>
    lang === 'mn'
      ? `Таны Tunes бүртгэлийн утасны дугаар сүүлийн орнууд нь ${lastDigits} бүхий дугаараар солигдлоо. Хэрэв та үүнийг хийгээгүй бол бидэнтэй даруй холбогдоно уу.`
      : `The phone number of your Tunes account was changed to a number ending in ${lastDigits}. If this was not you, contact us now.`,
  passwordChangedSubject: (lang: Lang) =>
    lang === 'mn' ? 'Tunes нууц үг солигдлоо' : 'Your Tunes password was changed',
  passwordChanged: (lang: Lang) =>
    lang === 'mn'
      ? 'Таны Tunes бүртгэлийн нууц үг солигдож, бусад төхөөрөмжөөс гарлаа. Хэрэв та үүнийг хийгээгүй бол нууц үгээ даруй сэргээж, бидэнтэй холбогдоно уу.'
      : 'The password of your Tunes account was changed and your other devices were signed out. If this was not you, reset your password now and contact us.',
  accountDeletedSubject: (lang: Lang) =>
    lang === 'mn' ? 'Tunes бүртгэл устгагдлаа' : 'Your Tunes account was deleted',
  accountDeleted: (lang: Lang) =>
    lang === 'mn'
      ? 'Таны Tunes бүртгэл болон хувийн мэдээлэл устгагдлаа. Сунгалт зогссон. Манайхыг сонгож байсанд баярлалаа.'
      : 'Your Tunes account and its personal data were deleted, and renewals stopped. Thank you for listening with us.',
  familyEnding: (lang: Lang, endDate: string) =>
    lang === 'mn'
      ? `Таны хамрагдаж буй Tunes гэр бүлийн багц эзэмшигч нь бүртгэлээ устгасан тул ${endDate}-нд дуусна.`
      : `The Tunes family plan you are on ends on ${endDate}: its owner closed their account.`,
};
