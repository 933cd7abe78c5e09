import { CODE_LOCKED_ERROR, GRANT_ERRORS } from '@tunes/shared/account-codes';
import {
  DEFAULT_COUNTRY_CODE,
  type Language,
  OTP_LENGTH,
  RESEND_COUNTDOWN_SECONDS,
} from '@tunes/shared/constants';
import { toMsisdn } from '@tunes/shared/phone-number';
import type { SendChallenge } from '@tunes/shared/send-codes';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type ErrorMessages, isApiError, userMessage } from '@/lib/api-error';
import { activeLanguage } from '@/lib/i18n';
import type { AuthData } from '@/lib/session';
import { useCountdown } from '../hooks/use-countdown';
import { type CodeRequested, OTP_VERDICT_MESSAGES, type OtpVerdict, requestOtp, validateOtp } from './otp';
import { registerByMsisdn } from './register';
import { challengeOf, isChallengeRequest } from './send-refusals';
import { grantByMsisdn, storeSession } from './sign-in';

export interface MobileNumber {
  phoneNumber: string;
  countryCode: number;
}

/** product.md §8 grant errors of the mobile flow ("403" a wrong code; 604 registers the number). */
const MOBILE_SIGN_IN_MESSAGES: ErrorMessages = {
  [GRANT_ERRORS.cannotAuthenticate]: 'accounts:messages.cant-authenticate-mobile',
  [GRANT_ERRORS.wrongCode]: 'accounts:messages.invalid-code',
  [CODE_LOCKED_ERROR]: 'accounts:messages.code-locked',
  429: 'accounts:messages.too-many-attempts',
  other: 'accounts:messages.login-failed',
};
const errors = { messages: MOBILE_SIGN_IN_MESSAGES };

/** Step 1 of product.md §4: a code by SMS to the number (or the one already sent, 429). */
export function requestMobileCode(number: MobileNumber, language: string, resend: boolean, proof?: string) {
  return requestOtp({ msisdn: toMsisdn(number.countryCode, number.phoneNumber) }, language, {
    resend,
    resendIn: RESEND_COUNTDOWN_SECONDS,
    proof,
  });
}

/**
 * Step 2 of product.md §4: the code is validated, then granted; a number not registered yet (604)
 * is registered with the same code, in the site's `language` (the account's from then on), and
 * granted again. Resolves with the stored session, or why the code does not validate (wrong, or
 * expired or locked: then only a new code helps).
 */
export async function signInByMobile(
  number: MobileNumber,
  code: string,
  language: Language,
): Promise<AuthData | Exclude<OtpVerdict, 'valid'>> {
  const msisdn = toMsisdn(number.countryCode, number.phoneNumber);
  const verdict = await validateOtp({ msisdn }, code, errors);
  if (verdict !== 'valid') return verdict;
  let tokens: Awaited<ReturnType<typeof grantByMsisdn>>;
  try {
    tokens = await grantByMsisdn(msisdn, code, errors);
  } catch (error) {
    if (!isApiError(error, { code: GRANT_ERRORS.notRegistered })) throw error;
    await registerByMsisdn(number.phoneNumber, number.countryCode, code, language);
    tokens = await grantByMsisdn(msisdn, code, errors);
  }
  return storeSession(tokens, {
    username: msisdn,
    phone: { number: number.phoneNumber, countryCode: number.countryCode },
  });
}

/**
 * product.md §3 "Phone login state"; `spent` when the code expired or locked (a new one is
 * needed); `challenge` while a proof-of-work challenge stands between the listener and a code
 * (security.md "Sends"), `resending` whether that code is a resend.
 */
export interface PhoneLoginState extends MobileNumber {
  code: string;
  loading: boolean;
  error: string;
  codeSent: boolean;
  spent: boolean;
  challenge: SendChallenge | null;
  resending: boolean;
}

/** The mobile login of product.md §2/§4 as state and actions for the form: number → code → signed in. */
export function useMobileSignIn(onSignedIn: () => void) {
  const { t, i18n } = useTranslation('accounts');
  const [state, setState] = useState<PhoneLoginState>({
    phoneNumber: '',
    countryCode: DEFAULT_COUNTRY_CODE,
    code: '',
    loading: false,
    error: '',
    codeSent: false,
    spent: false,
    challenge: null,
    resending: false,
  });
  const countdown = useCountdown();
  // Counts the listener's edits of the code, so a send's answer empties only a field left as it
  // was asked from: the text can beat the answer to the page, and what was typed then is the new code.
  const codeEdits = useRef(0);
  const update = (change: Partial<PhoneLoginState>) => setState((current) => ({ ...current, ...change }));
  const number = (): MobileNumber => ({
    phoneNumber: state.phoneNumber.trim(),
    countryCode: state.countryCode,
  });

  const sendCode = async (resend: boolean, proof?: string) => {
    // The world's numbering plans load with the first code asked for, not with the page.
    const { isValidPhone } = await import('@tunes/shared/phone-rules');
    if (!isValidPhone(state.countryCode, number().phoneNumber)) {
      update({ error: t('messages.cant-authenticate-mobile') });
      return;
    }
    update({ loading: true, error: '' });
    const editsAsked = codeEdits.current;
    let sent: CodeRequested;
    try {
      sent = await requestMobileCode(number(), i18n.language, resend, proof);
    } catch (error) {
      // A challenge to solve first (or a new one, the answer refused): shown in place. Any other
      // refusal says that no code went out, and the step stays where it was.
      const challenge = challengeOf(error);
      const shown = isChallengeRequest(error) ? '' : userMessage(error);
      update({ loading: false, error: shown, challenge, resending: resend });
      return;
    }
    const typedSince = codeEdits.current !== editsAsked;
    update({
      loading: false,
      codeSent: true,
      challenge: null,
      ...(sent.alreadySent ? {} : { spent: false, ...(typedSince ? {} : { code: '' }) }),
    });
    countdown.start(sent.resendIn);
  };

  const signIn = async () => {
    if (!/^\d{4}$/.test(state.code)) {
      update({ error: t('messages.invalid-code') });
      return;
    }
    update({ loading: true, error: '' });
    try {
      const result = await signInByMobile(number(), state.code, activeLanguage());
      if (typeof result === 'string') {
        update({ loading: false, error: t(OTP_VERDICT_MESSAGES[result]), spent: result !== 'wrong' });
        return;
      }
    } catch (error) {
      const spent = isApiError(error, { code: CODE_LOCKED_ERROR });
      update({ loading: false, error: userMessage(error), spent });
      return;
    }
    onSignedIn();
  };

  return {
    state,
    secondsToResend: countdown.secondsLeft,
    setPhoneNumber: (typed: string) => update({ phoneNumber: typed.replace(/\D/g, ''), error: '' }),
    setCountryCode: (countryCode: number) => update({ countryCode }),
    setCode: (typed: string) => {
      codeEdits.current += 1;
      update({ code: typed.replace(/\D/g, '').slice(0, OTP_LENGTH), error: '' });
    },
    sendCode: () => sendCode(false),
    resendCode: () => sendCode(true),
    /** The challenge is solved: the same request again, with its proof. */
    sendWithProof: (proof: string) => sendCode(state.resending, proof),
    signIn,
    changeNumber: () => update({ codeSent: false, code: '', error: '', spent: false, challenge: null }),
  };
}
