import { zodResolver } from '@hookform/resolvers/zod';
import { PASSWORD_MAX_LENGTH } from '@tunes/shared/constants';
import { loginPasswordSchema, newPasswordSchema } from '@tunes/shared/validation';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { Dialog } from '@/components/dialog';
import { FormField } from '@/components/form-field';
import { isApiError, userMessage } from '@/lib/api-error';
import type { TranslationKey } from '@/lib/i18n';
import { toast } from '@/lib/toast';
import { useChangePassword } from '../api/change-password';
import styles from './self-service.module.css';

/** The current password, and the new one twice (the rules of registration, product.md §5). */
const schema = z
  .object({ current: loginPasswordSchema, next: newPasswordSchema, confirm: z.string() })
  .refine(({ next, confirm }) => next === confirm, {
    path: ['confirm'],
    message: 'validation.passwords-do-not-match',
  });
type Values = z.input<typeof schema>;

const FIELDS = [
  ['current', 'password.current', 'current-password'],
  ['next', 'password.new', 'new-password'],
  ['confirm', 'password.confirm', 'new-password'],
] as const satisfies readonly (readonly [keyof Values, TranslationKey<'accounts'>, string])[];

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
  const form = useForm<Values, unknown, z.output<typeof schema>>({
    resolver: zodResolver(schema),
    defaultValues: { current: '', next: '', confirm: '' },
  });
  const { errors, isSubmitting } = form.formState;

  const submit = form.handleSubmit(async ({ current, next }) => {
    setFailure('');
    try {
      await change.mutateAsync({ CurrentPassword: current, NewPassword: next });
      toast.success(t('password.done'));
      onDone();
    } catch (error) {
      // A wrong current password belongs to its field; anything else to the form.
      if (isApiError(error, { code: 'wrong_password' })) {
        form.setError('current', { message: error.message }, { shouldFocus: true });
      } else setFailure(userMessage(error));
    }
  });

  return (
    <form noValidate onSubmit={submit}>
      <p className={styles.intro}>{t('password.intro')}</p>
      {FIELDS.map(([name, label, autoComplete]) => (
        <FormField key={name} id={`password-${name}`} label={t(label)} error={errors[name]?.message}>
          {(control) => (
            <input
              {...control}
              data-autofocus={name === 'current' ? true : undefined}
              className="input"
              type="password"
              autoComplete={autoComplete}
              maxLength={PASSWORD_MAX_LENGTH}
              {...form.register(name)}
            />
          )}
        </FormField>
      ))}
      {failure && (
        <p className="form-error" role="alert">
          {failure}
        </p>
      )}
      <div className={styles.actions}>
        <button type="submit" className="button button--primary" disabled={isSubmitting}>
          {isSubmitting ? t('password.saving') : t('password.save')}
        </button>
      </div>
    </form>
  );
}
