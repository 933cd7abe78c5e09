import { OTP_LENGTH, PASSWORD_MAX_LENGTH } from '@tunes/shared/constants';
import type { Profile } from '@tunes/shared/profile';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '@/components/dialog';
import { FormError, TextField } from '@/components/form-field';
import { userMessage } from '@/lib/api-error';
import { toast } from '@/lib/toast';
import { type DeletionProof, useDeleteAccount } from '../api/delete-account';
import { SendCodeButton, useAccountCode } from './account-code';
import styles from './self-service.module.css';

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

function DeleteAccountForm({ profile, onCancel }: { profile: Profile; onCancel(): void }) {
  const { t } = useTranslation('accounts');
  const remove = useDeleteAccount();
  const [failure, setFailure] = useState('');
  const sender = useAccountCode(profile, setFailure);
  const { destination } = sender;
  const [method, setMethod] = useState<'code' | 'password'>(destination ? 'code' : 'password');
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [understood, setUnderstood] = useState(false);
  const warningId = useId();
  const canChoose = profile.HasPassword && destination !== null;

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
          <SendCodeButton code={sender} label={t('delete.send-code')} />
          {sender.codeSent && (
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
