import { OTP_LENGTH } from '@tunes/shared/constants';
import type { Profile } from '@tunes/shared/profile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormError } from '@/components/form-field';
import { userMessage } from '@/lib/api-error';
import { toast } from '@/lib/toast';
import { useConfirmEmailChange, useUpdateDetails } from '../api/update-details';
import { CodeBoxes } from './code-boxes';
import styles from './profile.module.css';

interface Props {
  profile: Profile;
  /** The address waiting for its code. */
  pendingEmail: string;
  onConfirmed(): void;
}

/**
 * The second step of an e-mail change (security.md): the new address takes effect only once the
 * code sent to it is entered here; the old one stays until then.
 */
export function ConfirmEmailChange({ profile, pendingEmail, onConfirmed }: Props) {
  const { t } = useTranslation('accounts');
  const [digits, setDigits] = useState<string[]>(Array(OTP_LENGTH).fill(''));
  const [failure, setFailure] = useState('');
  const confirm = useConfirmEmailChange();
  const update = useUpdateDetails();
  const code = digits.join('');

  const submit = async () => {
    setFailure('');
    try {
      await confirm.mutateAsync(code);
      toast.success(t('edit.email-changed'));
      onConfirmed();
    } catch (error) {
      setFailure(userMessage(error));
    }
  };

  const resend = async () => {
    setFailure('');
    try {
      await update.mutateAsync({ ...profile, Email: pendingEmail });
      setDigits(Array(OTP_LENGTH).fill(''));
      toast.success(t('edit.resent'));
    } catch (error) {
      setFailure(userMessage(error));
    }
  };

  const keepCurrent = async () => {
    // Saving the current address again withdraws the change.
    await update.mutateAsync({ ...profile, Email: profile.PrimaryEmail ?? '' }).catch(() => {});
    onConfirmed();
  };

  return (
    <section className={styles.form} aria-labelledby="confirm-email-title">
      <h2 id="confirm-email-title">{t('edit.confirm-title')}</h2>
      <p>{t('edit.confirm-sent', { email: pendingEmail })}</p>
      <CodeBoxes digits={digits} onChange={setDigits} invalid={Boolean(failure)} />
      {failure && <FormError>{failure}</FormError>}
      <div className={styles.actions}>
        <button
          type="button"
          className="button button--primary"
          disabled={code.length !== OTP_LENGTH || confirm.isPending}
          onClick={submit}
        >
          {t('edit.confirm')}
        </button>
        <button type="button" className="button button--ghost" disabled={update.isPending} onClick={resend}>
          {t('edit.resend')}
        </button>
        <button type="button" className="button button--ghost" onClick={keepCurrent}>
          {t('edit.keep-current')}
        </button>
      </div>
    </section>
  );
}
