import { PASSWORD_MAX_LENGTH } from '@tunes/shared/constants';
import { API_ERROR_CODES } from '@tunes/shared/error-codes';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { Dialog } from '@/components/dialog';
import { FormError, TextField } from '@/components/form-field';
import { isApiError, userMessage } from '@/lib/api-error';
import { lazyZodResolver } from '@/lib/lazy-resolver';
import { toast } from '@/lib/toast';
import { useChangePassword } from '../api/change-password';
import type { changePasswordSchema } from '../form-schemas';
import { NewPasswordFields } from './new-password-fields';
import styles from './self-service.module.css';

const resolver = lazyZodResolver(() =>
  import('../form-schemas').then((schemas) => schemas.changePasswordSchema),
);
type Values = z.input<typeof changePasswordSchema>;

/** Changing the password (product.md §14): the current one is required; other devices sign out. */
export function ChangePasswordDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const { t } = useTranslation('accounts');
  return (
    <Dialog open={open} title={t('password.title')} onClose={onClose}>
      <ChangePasswordForm onDone={onClose} />
    </Dialog>
  );
}

function ChangePasswordForm({ onDone }: { onDone(): void }) {
  const { t } = useTranslation('accounts');
  const change = useChangePassword();
  const [failure, setFailure] = useState('');
  const form = useForm<Values, unknown, z.output<typeof changePasswordSchema>>({
    resolver,
    defaultValues: { current: '', password: '', confirm: '' },
  });
  const { errors, isSubmitting } = form.formState;

  const submit = form.handleSubmit(async ({ current, password }) => {
    setFailure('');
    try {
      await change.mutateAsync({ CurrentPassword: current, NewPassword: password });
      toast.success(t('password.done'));
      onDone();
    } catch (error) {
      // A wrong current password belongs to its field; anything else to the form.
      if (isApiError(error, { code: API_ERROR_CODES.wrongPassword })) {
        form.setError('current', { message: error.message }, { shouldFocus: true });
      } else setFailure(userMessage(error));
    }
  });

  return (
    <form noValidate onSubmit={submit} onFocus={resolver.warm}>
      <p className={styles.intro}>{t('password.intro')}</p>
      <TextField
        id="password-current"
        label={t('password.current')}
        error={errors.current?.message}
        data-autofocus
        type="password"
        autoComplete="current-password"
        maxLength={PASSWORD_MAX_LENGTH}
        {...form.register('current')}
      />
      <NewPasswordFields
        id="password-new"
        passwordLabel={t('password.new')}
        register={form.register}
        errors={errors}
      />
      {failure && <FormError>{failure}</FormError>}
      <div className={styles.actions}>
        <button type="submit" className="button button--primary" disabled={isSubmitting}>
          {isSubmitting ? t('password.saving') : t('password.save')}
        </button>
      </div>
    </form>
  );
}
