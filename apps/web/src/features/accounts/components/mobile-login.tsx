import { GRANT_ERRORS, isValidPhone } from '@tunes/shared/accounts';
import { DEFAULT_COUNTRY_CODE, OTP_LENGTH, RESEND_COUNTDOWN_SECONDS } from '@tunes/shared/constants';
import { toMsisdn } from '@tunes/shared/validation';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import { isAlreadySent, requestOtp, retryAfterSeconds, validateOtp } from '../api/otp';
import { registerByMsisdn } from '../api/register';
import { grantByMsisdn, storeSession } from '../api/sign-in';
import { useCountdown } from '../hooks/use-countdown';
import { CountryCodeSelect } from './country-code-select';
import styles from './login-modal.module.css';

/** product.md §3 "Phone login state". */
interface PhoneLoginState {
  phoneNumber: string;
  countryCode: number;
  code: string;
  loading: boolean;
  error: string;
  codeSent: boolean;
}

/** The grant error's message key of product.md §8. */
function grantErrorKey(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.code === GRANT_ERRORS.cannotAuthenticate) return 'messages.cant-authenticate-mobile';
    if (error.status === 403 || error.code === GRANT_ERRORS.wrongCode) return 'messages.invalid-code';
    if (error.status === 429) return 'messages.too-many-attempts';
  }
  return 'messages.login-failed';
}

/** Mobile login of product.md §2/§4: number → code → grant (registering on 604) → signed in. */
export function MobileLogin({ onSignedIn }: { onSignedIn(): void }) {
  const { t, i18n } = useTranslation('accounts');
  const [state, setState] = useState<PhoneLoginState>({
    phoneNumber: '',
    countryCode: DEFAULT_COUNTRY_CODE,
    code: '',
    loading: false,
    error: '',
    codeSent: false,
  });
  const countdown = useCountdown();
  const update = (change: Partial<PhoneLoginState>) => setState((current) => ({ ...current, ...change }));
  const msisdn = () => toMsisdn(state.countryCode, state.phoneNumber);

  const sendCode = async (isResend: boolean) => {
    const phoneNumber = state.phoneNumber.trim();
    if (!isValidPhone(state.countryCode, phoneNumber)) {
      update({ error: t('messages.cant-authenticate-mobile') });
      return;
    }
    update({ loading: true, error: '' });
    try {
      await requestOtp({ msisdn: msisdn() }, i18n.language);
      update({ loading: false, codeSent: true, code: '' });
      countdown.start(RESEND_COUNTDOWN_SECONDS);
    } catch (error) {
      if (isAlreadySent(error)) {
        toast(t('messages.otp-already-sent'));
        update({ loading: false, codeSent: true });
        countdown.start(retryAfterSeconds(error) ?? RESEND_COUNTDOWN_SECONDS);
        return;
      }
      const message = t(isResend ? 'messages.otp-resend-failed' : 'messages.otp-request-failed');
      toast.error(message);
      update({ loading: false, error: message });
    }
  };

  const signIn = async () => {
    if (!/^\d{4}$/.test(state.code)) {
      update({ error: t('messages.invalid-code') });
      return;
    }
    update({ loading: true, error: '' });
    const number = msisdn();
    try {
      if (!(await validateOtp({ msisdn: number }, state.code))) {
        update({ loading: false, error: t('messages.invalid-code') });
        return;
      }
      let tokens: Awaited<ReturnType<typeof grantByMsisdn>>;
      try {
        tokens = await grantByMsisdn(number, state.code);
      } catch (error) {
        if (!(error instanceof ApiError && error.code === GRANT_ERRORS.notRegistered)) throw error;
        try {
          await registerByMsisdn(state.phoneNumber.trim(), state.countryCode, state.code);
        } catch {
          update({ loading: false, error: t('messages.registration-failed') });
          return;
        }
        tokens = await grantByMsisdn(number, state.code);
      }
      await storeSession(tokens, {
        username: number,
        phone: { number: state.phoneNumber.trim(), countryCode: state.countryCode },
      });
      onSignedIn();
    } catch (error) {
      update({ loading: false, error: t(grantErrorKey(error)) });
    }
  };

  if (!state.codeSent) {
    return (
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void sendCode(false);
        }}
      >
        <div className="field">
          <label className="field__label" htmlFor="login-phone">
            {t('mobile.phone')}
          </label>
          <div className={styles.phoneRow}>
            <CountryCodeSelect
              value={state.countryCode}
              onChange={(countryCode) => update({ countryCode })}
            />
            <input
              id="login-phone"
              className="input"
              type="tel"
              inputMode="numeric"
              autoComplete="tel-national"
              value={state.phoneNumber}
              aria-invalid={Boolean(state.error)}
              aria-describedby={state.error ? 'login-phone-error' : undefined}
              onChange={(event) => update({ phoneNumber: event.target.value.replace(/\D/g, ''), error: '' })}
            />
          </div>
          {state.error && (
            <p id="login-phone-error" className="field__error" role="alert">
              {state.error}
            </p>
          )}
        </div>
        <button type="submit" className="button button--primary button--block" disabled={state.loading}>
          {t('mobile.verify')}
        </button>
        <p className={styles.muted}>
          {t('mobile.terms')}{' '}
          <a href="/help/tos" target="_blank" rel="noreferrer">
            {t('mobile.terms-link')}
          </a>
        </p>
      </form>
    );
  }

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void signIn();
      }}
    >
      <p>{t('mobile.code-sent', { phone: `+${state.countryCode} ${state.phoneNumber}` })}</p>
      <div className="field">
        <label className="field__label" htmlFor="login-code">
          {t('mobile.code')}
        </label>
        <input
          id="login-code"
          className="input"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={OTP_LENGTH}
          value={state.code}
          aria-invalid={Boolean(state.error)}
          aria-describedby={state.error ? 'login-code-error' : undefined}
          onChange={(event) =>
            update({ code: event.target.value.replace(/\D/g, '').slice(0, OTP_LENGTH), error: '' })
          }
        />
        {state.error && (
          <p id="login-code-error" className="field__error" role="alert">
            {state.error}
          </p>
        )}
      </div>
      <button type="submit" className="button button--primary button--block" disabled={state.loading}>
        {t('mobile.continue')}
      </button>
      <div className={styles.links}>
        {countdown.secondsLeft > 0 ? (
          <span className={styles.muted}>{t('mobile.resend-in', { seconds: countdown.secondsLeft })}</span>
        ) : (
          <button
            type="button"
            className="link-button"
            disabled={state.loading}
            onClick={() => void sendCode(true)}
          >
            {t('mobile.resend')}
          </button>
        )}
        <button
          type="button"
          className="link-button"
          onClick={() => update({ codeSent: false, code: '', error: '' })}
        >
          {t('mobile.change-number')}
        </button>
      </div>
    </form>
  );
}
