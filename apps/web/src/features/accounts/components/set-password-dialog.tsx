import { OTP_LENGTH } from '@tunes/shared/constants';
import { API_ERROR_CODES } from '@tunes/shared/error-codes';
import type { Profile } from '@tunes/shared/profile';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { Dialog } from '@/components/dialog';
import { FormError, TextField } from '@/components/form-field';
import { isApiError, userMessage } from '@/lib/api-error';
import { lazyZodResolver } from '@/lib/lazy-resolver';
import { toast } from '@/lib/toast';
import { useSetPassword } from '../api/set-password';
import type { setPasswordSchema } from '../form-schemas';
import { SendCodeButton, useAccountCode } from './account-code';
import { NewPasswordFields } from './new-password-fields';
import styles from './self-service.module.css';

const resolver = lazyZodResolver(() =>
  import('../form-schemas').then((schemas) => schemas.setPasswordSchema),
);
type Values = z.input<typeof setPasswordSchema>;

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
  const { t } = useTranslation('accounts');
  const set = useSetPassword();
  const [failure, setFailure] = useState('');
  const code = useAccountCode(profile, setFailure);
  const form = useForm<Values, unknown, z.output<typeof setPasswordSchema>>({
    resolver,
    defaultValues: { code: '', password: '', confirm: '' },
  });
  const { errors, isSubmitting } = form.formState;

  const submit = form.handleSubmit(async ({ code: otp, password }) => {
    setFailure('');
    try {
      await set.mutateAsync({ Otp: otp, NewPassword: password });
      toast.success(t('set-password.done'));
      onDone();
    } catch (error) {
      // A wrong code belongs to its field; anything else to the form.
      if (isApiError(error, { code: API_ERROR_CODES.invalidCode })) {
        form.setError('code', { message: error.message }, { shouldFocus: true });
      } else setFailure(userMessage(error));
    }
  });

  const { destination } = code;
  if (!destination) return <p>{t('set-password.no-destination')}</p>;
  return (
    <form noValidate onSubmit={submit} onFocus={resolver.warm}>
      <p className={styles.intro}>{t('set-password.intro', { target: destination.shown })}</p>
      <SendCodeButton code={code} label={t('set-password.send-code')} />
      {code.codeSent && (
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
      {code.codeSent && (
        <div className={styles.actions}>
          <button type="submit" className="button button--primary" disabled={isSubmitting}>
            {isSubmitting ? t('set-password.saving') : t('set-password.save')}
          </button>
        </div>
      )}
    </form>
  );
}
