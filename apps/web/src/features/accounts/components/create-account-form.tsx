import { RESEND_COUNTDOWN_SECONDS } from '@tunes/shared/constants';
import type { SendChallenge as Challenge } from '@tunes/shared/send-codes';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormError } from '@/components/form-field';
import { userMessage } from '@/lib/api-error';
import { requestOtp } from '../api/otp';
import { challengeOf, isChallengeRequest } from '../api/send-refusals';
import { EmailAddressForm } from './email-address-form';
import { SendChallenge } from './send-challenge';

interface Props {
  /** The code went out (or was already sent): verify next, resend after `resendIn` seconds. */
  onCodeSent(email: string, resendIn: number): void;
  onBack(): void;
}

/**
 * Create an account, step 1 (product.md §2): the e-mail address that receives a code; from a
 * busy network, after the check it asks for (security.md "Sends").
 */
export function CreateAccountForm({ onCodeSent, onBack }: Props) {
  const { t, i18n } = useTranslation('accounts');
  const [pending, setPending] = useState<{ email: string; challenge: Challenge } | null>(null);
  const [failure, setFailure] = useState('');

  const send = async (email: string, proof?: string) => {
    try {
      const { resendIn } = await requestOtp({ email }, i18n.language, {
        resendIn: RESEND_COUNTDOWN_SECONDS,
        proof,
      });
      onCodeSent(email, resendIn);
    } catch (error) {
      const challenge = challengeOf(error);
      if (!challenge) throw error;
      setPending({ email, challenge });
      if (!isChallengeRequest(error)) setFailure(userMessage(error));
    }
  };

  return (
    <>
      <EmailAddressForm
        id="create-email"
        intro={t('email.create-intro')}
        submitLabel={t('email.request-code')}
        onBack={onBack}
        onSubmit={(email) => {
          setFailure('');
          setPending(null);
          return send(email);
        }}
      />
      {pending && (
        <SendChallenge
          challenge={pending.challenge}
          onSolved={(proof) => {
            setFailure('');
            send(pending.email, proof).catch((error: unknown) => {
              setPending(null);
              setFailure(userMessage(error));
            });
          }}
        />
      )}
      {failure && <FormError>{failure}</FormError>}
    </>
  );
}
