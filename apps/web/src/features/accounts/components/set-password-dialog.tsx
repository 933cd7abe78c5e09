import { OTP_RESEND_SECONDS } from '@tunes/shared/account-codes';
import { OTP_LENGTH } from '@tunes/shared/constants';
import { API_ERROR_CODES } from '@tunes/shared/error-codes';
import { formatPhoneForDisplay } from '@tunes/shared/phone-number';
import type { Profile } from '@tunes/shared/profile';
import type { SendChallenge as Challenge } from '@tunes/shared/send-codes';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { Dialog } from '@/components/dialog';
import { FormError, TextField } from '@/components/form-field';
import { isApiError, userMessage } from '@/lib/api-error';
import { lazyZodResolver } from '@/lib/lazy-resolver';
import { toast } from '@/lib/toast';
import { type OtpTarget, requestOtp } from '../api/otp';
import { challengeOf, isChallengeRequest } from '../api/send-refusals';
import { useSetPassword } from '../api/set-password';
import type { setPasswordSchema } from '../form-schemas';
import { useCountdown } from '../hooks/use-countdown';
import { NewPasswordFields } from './new-password-fields';
import styles from './self-service.module.css';
import { SendChallenge } from './send-challenge';

const resolver = lazyZodResolver(() =>
  import('../form-schemas').then((schemas) => schemas.setPasswordSchema),
);
type Values = z.input<typeof setPasswordSchema>;

/** Where the code goes: the account's number, else its address. */
function codeTarget(profile: Profile): { target: OtpTarget; shown: string } | null {
  if (profile.PhoneNumber)
    return { target: { msisdn: profile.PhoneNumber }, shown: formatPhoneForDisplay(profile.PhoneNumber) };
  if (profile.PrimaryEmail) return { target: { email: profile.PrimaryEmail }, shown: profile.PrimaryEmail };
  return null;
}

/**
 * A first password on an account that signs in by code (issue 37): a fresh code to the account's
 * number proves it is the holder, then the password twice, with the spec's rules and texts.
 */
export function SetPasswordDialog({
  profile,
  open,
  onClose,
}: {
  profile: Profile;
  open: boolean;
  onClose(): void;
}) {
  const { t } = useTranslation('accounts');
  return (
    <Dialog open={open} title={t('set-password.title')} onClose={onClose}>
      <SetPasswordForm profile={profile} onDone={onClose} />
    </Dialog>
  );
}

function SetPasswordForm({ profile, onDone }: { profile: Profile; onDone(): void }) {
  const { t, i18n } = useTranslation('accounts');
  const set = useSetPassword();
  const destination = codeTarget(profile);
  const resend = useCountdown();
  const [codeSent, setCodeSent] = useState(false);
  const [sending, setSending] = useState(false);
  const [challenge, setChallenge] = useState<Challenge | null>(null);
  const [failure, setFailure] = useState('');
  const form = useForm<Values, unknown, z.output<typeof setPasswordSchema>>({
    resolver,
    defaultValues: { code: '', password: '', confirm: '' },
  });
  const { errors, isSubmitting } = form.formState;

  const sendCode = async (proof?: string) => {
    if (!destination) return;
    setSending(true);
    setFailure('');
    try {
      const sent = await requestOtp(destination.target, i18n.language, {
        resendIn: OTP_RESEND_SECONDS,
        proof,
      });
      setChallenge(null);
      resend.start(sent.resendIn);
      setCodeSent(true);
    } catch (error) {
      setChallenge(challengeOf(error));
      if (!isChallengeRequest(error)) setFailure(userMessage(error));
    } finally {
      setSending(false);
    }
  };

  const submit = form.handleSubmit(async ({ code, password }) => {
    setFailure('');
    try {
      await set.mutateAsync({ Otp: code, NewPassword: password });
      toast.success(t('set-password.done'));
      onDone();
    } catch (error) {
      // A wrong code belongs to its field; anything else to the form.
      if (isApiError(error, { code: API_ERROR_CODES.invalidCode })) {
        form.setError('code', { message: error.message }, { shouldFocus: true });
      } else setFailure(userMessage(error));
    }
  });

  if (!destination) return <p>{t('set-password.no-destination')}</p>;
  return (
    <form noValidate onSubmit={submit} onFocus={resolver.warm}>
      <p className={styles.intro}>{t('set-password.intro', { target: destination.shown })}</p>
      <button
        type="button"
        className="button button--ghost"
        disabled={sending || resend.secondsLeft > 0}
        onClick={() => void sendCode()}
      >
        {resend.secondsLeft > 0
          ? t('mobile.resend-in', { seconds: resend.secondsLeft })
          : codeSent
            ? t('mobile.resend')
            : t('set-password.send-code')}
      </button>
      {challenge && <SendChallenge challenge={challenge} onSolved={(solved) => void sendCode(solved)} />}
      {codeSent && (
        <>
          <p role="status">{t('set-password.code-sent', { target: destination.shown })}</p>
          <TextField
            id="set-password-code"
            label={t('set-password.code')}
            error={errors.code?.message}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={OTP_LENGTH}
            {...form.register('code')}
          />
          <NewPasswordFields
            id="set-password-new"
            passwordLabel={t('password.new')}
            register={form.register}
            errors={errors}
          />
        </>
      )}
      {failure && <FormError>{failure}</FormError>}
      {codeSent && (
        <div className={styles.actions}>
          <button type="submit" className="button button--primary" disabled={isSubmitting}>
            {isSubmitting ? t('set-password.saving') : t('set-password.save')}
          </button>
        </div>
      )}
    </form>
  );
}
