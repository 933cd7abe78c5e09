/** Business constants and limits of product product.md §9, shared by the server and the site. */

export const STORE_ID = 'MNCO';
export const MERCHANT_ID = 14;
export const SIGN_IN_COUNTRY = 'MN';
export const MONGOLIA_DIAL_CODE = '976';
export const DEFAULT_COUNTRY_CODE = 976;

export const PASSWORD_MIN_LENGTH = 6;
/** Longest password accepted; bounds the cost of hashing. */
export const PASSWORD_MAX_LENGTH = 128;
export const MONGOLIAN_PHONE_LENGTH = 8;
export const OTP_LENGTH = 4;
export const VOUCHER_MAX_LENGTH = 15;
export const PROFILE_FIELD_MAX_LENGTH = 50;
export const EMAIL_MAX_LENGTH = 254;

export const INVITATION_TTL_DAYS = 5;
export const PLAN_DURATION_MONTHS = 1;
export const MAX_USERS = { premium: 1, duo: 2, family: 4 } as const;

export const PAYMENT_CURRENCY = 'MNT';
export const PAYMENT_LANGUAGE_CODE = 'mn';
export const PAYMENT_TYPE = 'purchase';
export const PAYMENT_REDIRECT_OS = 'PC';

export const RESEND_COUNTDOWN_SECONDS = 30;
export const RESEND_COUNTDOWN_AFTER_RESEND_SECONDS = 25;
export const SESSION_COOKIE_MAX_AGE_SECONDS = 60 * 60;
export const TOAST_DURATION_MS = 5000;

export const BREAKPOINT_DESKTOP_PX = 1024;
export const BREAKPOINT_PHONE_PX = 600;
export const CAROUSEL_SPEED_MS = 700;
export const MODAL_MAX_WIDTH_PX = 450;

export const FAQ_QUESTION_COUNT = 24;
export const TERMS_SECTION_COUNT = 11;
export const PRIVACY_SECTION_COUNT = 6;

export const LANGUAGES = ['en', 'mn'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';
/** localStorage key holding the chosen language. */
export const LANGUAGE_STORAGE_KEY = 'language';

/**
 * The service's own day: listeners and operators are in Mongolia, so dates are Ulaanbaatar's
 * (+08:00, no daylight saving since 2017), whatever zone a server or browser runs in.
 */
export const SERVICE_TIME_ZONE = 'Asia/Ulaanbaatar';
export const SERVICE_UTC_OFFSET = '+08:00';
/** A day in milliseconds: the service's days have no daylight-saving change (above). */
export const DAY_MS = 86_400_000;
