/** The languages of the messages the service sends (SMS, e-mail): English and Mongolian. */
export type Lang = 'en' | 'mn';

/**
 * The language of every message to an account: the one it stores (set at sign-up from the site's
 * language, changed from the site while signed in), English unless it is Mongolian.
 */
export const languageOf = (stored: string | null | undefined): Lang => (stored === 'mn' ? 'mn' : 'en');
