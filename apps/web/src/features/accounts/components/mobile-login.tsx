import { OTP_LENGTH } from '@tunes/shared/constants';
import { useTranslation } from 'react-i18next';
import { FormField, TextField } from '@/components/form-field';
import { useMobileSignIn } from '../api/mobile-sign-in';
import { DeferredCountryCodeSelect } from './deferred-country-code-select';
import styles from './login-modal.module.css';
import { NewCodeButton } from './new-code-button';
import { SendChallenge } from './send-challenge';

/** Mobile login of product.md §2: number → code → signed in (the flow: `api/mobile-sign-in.ts`). */
export function MobileLogin({ onSignedIn }: { onSignedIn(): void }) {
  const { t } = useTranslation('accounts');
  const login = useMobileSignIn(onSignedIn);
  const { state } = login;
  // A busy network's check stands between the listener and the code (security.md "Sends").
  const challenge = state.challenge && (
    <SendChallenge challenge={state.challenge} onSolved={(proof) => void login.sendWithProof(proof)} />
  );

  if (!state.codeSent) {
    return (
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void login.sendCode();
        }}
      >
        <FormField id="login-phone" label={t('mobile.phone')} error={state.error}>
          {(control) => (
            <div className={styles.phoneRow}>
              <DeferredCountryCodeSelect value={state.countryCode} onChange={login.setCountryCode} />
              <input
                {...control}
                className="input"
                type="tel"
                inputMode="numeric"
                autoComplete="tel-national"
                value={state.phoneNumber}
                onChange={(event) => login.setPhoneNumber(event.target.value)}
              />
            </div>
          )}
        </FormField>
        {challenge}
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
        void login.signIn();
      }}
    >
      <p>{t('mobile.code-sent', { phone: `+${state.countryCode} ${state.phoneNumber}` })}</p>
      <TextField
        id="login-code"
        label={t('mobile.code')}
        error={state.error}
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={OTP_LENGTH}
        value={state.code}
        onChange={(event) => login.setCode(event.target.value)}
      />
      {challenge}
      {state.spent ? (
        // An expired or locked code cannot sign in however it is typed: offer a new one instead.
        <NewCodeButton
          secondsLeft={login.secondsToResend}
          disabled={state.loading}
          onClick={() => void login.resendCode()}
        />
      ) : (
        <button type="submit" className="button button--primary button--block" disabled={state.loading}>
          {t('mobile.continue')}
        </button>
      )}
      <div className={styles.links}>
        {/* A spent code's button above already counts down to the new one (issue 37: not twice). */}
        {state.spent ? null : login.secondsToResend > 0 ? (
          <span className={styles.muted}>{t('mobile.resend-in', { seconds: login.secondsToResend })}</span>
        ) : (
          <button
            type="button"
            className="link-button"
            disabled={state.loading}
            onClick={() => void login.resendCode()}
          >
            {t('mobile.resend')}
          </button>
        )}
        <button type="button" className="link-button" onClick={login.changeNumber}>
          {t('mobile.change-number')}
        </button>
      </div>
    </form>
  );
}
