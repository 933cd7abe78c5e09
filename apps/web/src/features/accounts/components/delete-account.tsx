import { OTP_RESEND_SECONDS } from '@tunes/shared/account-codes';
import { OTP_LENGTH, PASSWORD_MAX_LENGTH } from '@tunes/shared/constants';
import { formatPhoneForDisplay } from '@tunes/shared/phone-number';
import type { Profile } from '@tunes/shared/profile';
import type { SendChallenge as Challenge } from '@tunes/shared/send-codes';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '@/components/dialog';
import { FormError, TextField } from '@/components/form-field';
import { userMessage } from '@/lib/api-error';
import { toast } from '@/lib/toast';
import { type DeletionProof, useDeleteAccount } from '../api/delete-account';
import { type OtpTarget, requestOtp } from '../api/otp';
import { challengeOf, isChallengeRequest } from '../api/send-refusals';
import { useCountdown } from '../hooks/use-countdown';
import styles from './self-service.module.css';
import { SendChallenge } from './send-challenge';

/** Delete my account (product.md §14): a clear warning, then a fresh proof in a dialog. */
export function DeleteAccount({ profile }: { profile: Profile }) {
  const { t } = useTranslation('accounts');
  const [open, setOpen] = useState(false);
  return (
    <section className={`card ${styles.card} ${styles.danger}`} aria-labelledby="delete-title">
      <h2 id="delete-title" className={styles.heading}>
        {t('delete.title')}
      </h2>
      <p className={styles.intro}>{t('delete.intro')}</p>
      <button type="button" className="button button--danger" onClick={() => setOpen(true)}>
        {t('delete.button')}
      </button>
      <Dialog open={open} title={t('delete.dialog-title')} danger onClose={() => setOpen(false)}>
        <DeleteAccountForm profile={profile} onCancel={() => setOpen(false)} />
      </Dialog>
    </section>
  );
}

/** Where a code for the proof goes: the account's number, else its address. */
function codeTarget(profile: Profile): { target: OtpTarget; shown: string } | null {
  if (profile.PhoneNumber)
    return { target: { msisdn: profile.PhoneNumber }, shown: formatPhoneForDisplay(profile.PhoneNumber) };
  if (profile.PrimaryEmail) return { target: { email: profile.PrimaryEmail }, shown: profile.PrimaryEmail };
  return null;
}

function DeleteAccountForm({ profile, onCancel }: { profile: Profile; onCancel(): void }) {
  const { t, i18n } = useTranslation('accounts');
  const remove = useDeleteAccount();
  const destination = codeTarget(profile);
  const [method, setMethod] = useState<'code' | 'password'>(destination ? 'code' : 'password');
  const [codeSent, setCodeSent] = useState(false);
  const [sending, setSending] = useState(false);
  const resend = useCountdown();
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [understood, setUnderstood] = useState(false);
  const [failure, setFailure] = useState('');
  const [challenge, setChallenge] = useState<Challenge | null>(null);
  const warningId = useId();
  const canChoose = profile.HasPassword && destination !== null;

  const sendCode = async (proof?: string) => {
    if (!destination) return;
    setSending(true);
    setFailure('');
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
      // once, below, in its own words (product.md §8).
      setChallenge(challengeOf(error));
      if (!isChallengeRequest(error)) setFailure(userMessage(error));
    } finally {
      setSending(false);
    }
  };

  const proof: DeletionProof | null =
    method === 'password'
      ? password
        ? { Password: password }
        : null
      : code.length === OTP_LENGTH
        ? { Otp: code }
        : null;

  const submit = async () => {
    if (!proof || !understood) return;
    setFailure('');
    try {
      await remove.mutateAsync(proof);
      toast.success(t('delete.done'));
    } catch (error) {
      setFailure(userMessage(error));
    }
  };

  return (
    <form
      noValidate
      aria-describedby={warningId}
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <p id={warningId} className={styles.warning}>
        {t('delete.warning')}
      </p>
      <p>{canChoose ? t('delete.prove') : t('delete.prove-code')}</p>
      {canChoose && (
        <fieldset className={styles.choice}>
          <legend className="visually-hidden">{t('delete.proof-method')}</legend>
          <label>
            <input type="radio" name="proof" checked={method === 'code'} onChange={() => setMethod('code')} />
            {t('delete.by-code')}
          </label>
          <label>
            <input
              type="radio"
              name="proof"
              checked={method === 'password'}
              onChange={() => setMethod('password')}
            />
            {t('delete.by-password')}
          </label>
        </fieldset>
      )}
      {method === 'code' && destination && (
        <>
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
                : t('delete.send-code')}
          </button>
          {challenge && <SendChallenge challenge={challenge} onSolved={(solved) => void sendCode(solved)} />}
          {codeSent && (
            <>
              <p role="status">{t('delete.code-sent', { target: destination.shown })}</p>
              <TextField
                id="delete-code"
                label={t('delete.code')}
                inputMode="numeric"
                autoComplete="one-time-code"
                maxLength={OTP_LENGTH}
                value={code}
                onChange={(event) => setCode(event.target.value.replace(/\D/g, ''))}
              />
            </>
          )}
        </>
      )}
      {method === 'password' && (
        <TextField
          id="delete-password"
          label={t('delete.password')}
          type="password"
          autoComplete="current-password"
          maxLength={PASSWORD_MAX_LENGTH}
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
      )}
      <label className={styles.check}>
        <input
          type="checkbox"
          checked={understood}
          onChange={(event) => setUnderstood(event.target.checked)}
        />
        <span>{t('delete.understand')}</span>
      </label>
      {failure && <FormError>{failure}</FormError>}
      <div className={styles.actions}>
        <button
          type="submit"
          className="button button--danger"
          disabled={!proof || !understood || remove.isPending}
          aria-busy={remove.isPending}
        >
          {remove.isPending ? t('delete.deleting') : t('delete.confirm')}
        </button>
        <button type="button" className="button button--ghost" onClick={onCancel}>
          {t('delete.cancel')}
        </button>
      </div>
    </form>
  );
}
