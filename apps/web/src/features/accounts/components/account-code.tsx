import { OTP_RESEND_SECONDS } from '@tunes/shared/account-codes';
import { formatPhoneForDisplay } from '@tunes/shared/phone-number';
import type { Profile } from '@tunes/shared/profile';
import type { SendChallenge as Challenge } from '@tunes/shared/send-codes';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { userMessage } from '@/lib/api-error';
import { type OtpTarget, requestOtp } from '../api/otp';
import { challengeOf, isChallengeRequest } from '../api/send-refusals';
import { useCountdown } from '../hooks/use-countdown';
import { SendChallenge } from './send-challenge';

/** Where a code proving the holder goes: the account's number, else its address. */
function codeTarget(profile: Profile): { target: OtpTarget; shown: string } | null {
  if (profile.PhoneNumber)
    return { target: { msisdn: profile.PhoneNumber }, shown: formatPhoneForDisplay(profile.PhoneNumber) };
  if (profile.PrimaryEmail) return { target: { email: profile.PrimaryEmail }, shown: profile.PrimaryEmail };
  return null;
}

/**
 * A fresh code to the account's own number or address, as a step of a form that needs the holder
 * (a first password, deleting the account): sending, the resend countdown and a busy network's
 * check. A refusal other than the check goes to `onFailure`, to be shown once in the form.
 */
export function useAccountCode(profile: Profile, onFailure: (message: string) => void) {
  const { i18n } = useTranslation('accounts');
  const destination = codeTarget(profile);
  const resend = useCountdown();
  const [codeSent, setCodeSent] = useState(false);
  const [sending, setSending] = useState(false);
  const [challenge, setChallenge] = useState<Challenge | null>(null);

  const send = async (proof?: string) => {
    if (!destination) return;
    setSending(true);
    onFailure('');
    try {
      // A code sent moments ago (429) is still the one to enter; the wait is the server's.
      const sent = await requestOtp(destination.target, i18n.language, {
        resendIn: OTP_RESEND_SECONDS,
        proof,
      });
      setChallenge(null);
      resend.start(sent.resendIn);
      setCodeSent(true);
    } catch (error) {
      // A busy network's check comes first (security.md "Sends"); any other refusal is shown
      // once, in its own words (product.md §8).
      setChallenge(challengeOf(error));
      if (!isChallengeRequest(error)) onFailure(userMessage(error));
    } finally {
      setSending(false);
    }
  };

  return { destination, codeSent, sending, challenge, secondsLeft: resend.secondsLeft, send };
}

export type AccountCode = ReturnType<typeof useAccountCode>;

/** The send (then resend, after its countdown) button, and the check when the network is busy. */
export function SendCodeButton({ code, label }: { code: AccountCode; label: string }) {
  const { t } = useTranslation('accounts');
  return (
    <>
      <button
        type="button"
        className="button button--ghost"
        disabled={code.sending || code.secondsLeft > 0}
        onClick={() => void code.send()}
      >
        {code.secondsLeft > 0
          ? t('mobile.resend-in', { seconds: code.secondsLeft })
          : code.codeSent
            ? t('mobile.resend')
            : label}
      </button>
      {code.challenge && (
        <SendChallenge challenge={code.challenge} onSolved={(solved) => void code.send(solved)} />
      )}
    </>
  );
}
