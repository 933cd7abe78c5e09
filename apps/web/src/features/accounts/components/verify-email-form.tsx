import { OTP_LENGTH, RESEND_COUNTDOWN_AFTER_RESEND_SECONDS } from '@tunes/shared/constants';
import type { SendChallenge as Challenge } from '@tunes/shared/send-codes';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormError } from '@/components/form-field';
import { userMessage } from '@/lib/api-error';
import { OTP_VERDICT_MESSAGES, requestOtp, verifyEmailCode } from '../api/otp';
import { challengeOf, isChallengeRequest } from '../api/send-refusals';
import { useCountdown } from '../hooks/use-countdown';
import { CodeBoxes } from './code-boxes';
import styles from './login-modal.module.css';
import { NewCodeButton } from './new-code-button';
import { SendChallenge } from './send-challenge';

interface Props {
  email: string;
  resendIn: number;
  onVerified(otp: string): void;
}

/** Verify the e-mail with the 4-digit code (product.md §2, §8 validateOTP messages). */
export function VerifyEmailForm({ email, resendIn, onVerified }: Props) {
  const { t, i18n } = useTranslation('accounts');
  const [digits, setDigits] = useState<string[]>(() => Array(OTP_LENGTH).fill(''));
  const [failure, setFailure] = useState('');
  const [busy, setBusy] = useState(false);
  /** The code expired or is locked after 5 wrong tries: only a new one helps. */
  const [spent, setSpent] = useState(false);
  const [challenge, setChallenge] = useState<Challenge | null>(null);
  const countdown = useCountdown(resendIn);
  // The listener's edits of the code: a resend's answer empties only boxes left as they were when
  // it was asked (the mail can beat the answer to the page, and what was typed then is the new code).
  const codeEdits = useRef(0);
  const code = digits.join('');

  const verify = async () => {
    if (!/^\d{4}$/.test(code)) {
      setFailure(t('messages.invalid-code'));
      return;
    }
    setBusy(true);
    setFailure('');
    try {
      const verdict = await verifyEmailCode(email, code);
      if (verdict === 'valid') {
        onVerified(code);
        return;
      }
      setFailure(t(OTP_VERDICT_MESSAGES[verdict]));
      setSpent(verdict !== 'wrong');
    } catch (error) {
      setFailure(userMessage(error));
    }
    setBusy(false);
  };

  const resend = async (proof?: string) => {
    setBusy(true);
    const editsAsked = codeEdits.current;
    try {
      const sent = await requestOtp({ email }, i18n.language, {
        resend: true,
        resendIn: RESEND_COUNTDOWN_AFTER_RESEND_SECONDS,
        proof,
      });
      setChallenge(null);
      if (!sent.alreadySent) {
        if (codeEdits.current === editsAsked) setDigits(Array(OTP_LENGTH).fill(''));
        setSpent(false);
        setFailure('');
      }
      countdown.start(sent.resendIn);
    } catch (error) {
      // A busy network's check comes first (security.md "Sends"); any other refusal is shown
      // here in its own words, and the countdown stays at zero to try again.
      setChallenge(challengeOf(error));
      if (!isChallengeRequest(error)) setFailure(userMessage(error));
    }
    setBusy(false);
  };

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void verify();
      }}
    >
      <p>{t('email.verify-intro', { email })}</p>
      <CodeBoxes
        digits={digits}
        invalid={Boolean(failure)}
        onChange={(next) => {
          codeEdits.current += 1;
          setDigits(next);
          setFailure('');
        }}
      />
      {failure && <FormError>{failure}</FormError>}
      {challenge && <SendChallenge challenge={challenge} onSolved={(proof) => void resend(proof)} />}
      {spent ? (
        <NewCodeButton secondsLeft={countdown.secondsLeft} disabled={busy} onClick={() => void resend()} />
      ) : (
        <button type="submit" className="button button--primary button--block" disabled={busy}>
          {t('email.verify')}
        </button>
      )}
      <div className={styles.links}>
        {/* A spent code's button above already counts down to the new one (issue 37: not twice). */}
        {spent ? null : countdown.secondsLeft > 0 ? (
          <span className={styles.muted}>{t('mobile.resend-in', { seconds: countdown.secondsLeft })}</span>
        ) : (
          <button type="button" className="link-button" disabled={busy} onClick={() => void resend()}>
            {t('mobile.resend')}
          </button>
        )}
      </div>
    </form>
  );
}
