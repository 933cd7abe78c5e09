import { zodResolver } from '@hookform/resolvers/zod';
import { newPasswordSchema } from '@tunes/shared/validation';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import { z } from 'zod';
import { FormField } from '@/components/form-field';
import { userMessage } from '@/lib/api-error';
import type { TranslationKey } from '@/lib/i18n';
import { toast } from '@/lib/toast';
import { resetPassword } from '../api/passwords';
import { blockEnter } from './block-enter';
import styles from './profile.module.css';

const schema = z
  .object({ password: z.string(), confirm: z.string() })
  .superRefine(({ password, confirm }, ctx) => {
    if (!password || !confirm) {
      ctx.addIssue({
        code: 'custom',
        path: [password ? 'confirm' : 'password'],
        message: 'validation.password-and-confirm-required',
      });
      return;
    }
    const strength = newPasswordSchema.safeParse(password);
    if (!strength.success) {
      ctx.addIssue({ code: 'custom', path: ['password'], message: strength.error.issues[0]?.message ?? '' });
    } else if (password !== confirm) {
      ctx.addIssue({ code: 'custom', path: ['confirm'], message: 'validation.passwords-do-not-match' });
    }
  });
type Values = z.input<typeof schema>;
const PASSWORD_FIELDS = [
  ['password', 'reset.new-password'],
  ['confirm', 'email.confirm-password'],
] as const satisfies readonly (readonly [keyof Values, TranslationKey<'accounts'>])[];

/** Sets a new password with the token of the e-mailed link, then sends the user to log in. */
export function ResetPasswordForm({ token }: { token: string | null }) {
  const { t } = useTranslation('accounts');
  const [, navigate] = useLocation();
  const [failure, setFailure] = useState('');
  const form = useForm<Values>({
    resolver: zodResolver(schema),
    defaultValues: { password: '', confirm: '' },
  });
  const { errors, isSubmitting } = form.formState;

  if (!token) {
    return (
      <p className="form-error" role="alert">
        {t('reset.missing')}
      </p>
    );
  }

  const submit = form.handleSubmit(async ({ password }) => {
    setFailure('');
    try {
      await resetPassword(token, password);
      toast.success(t('reset.done'));
      navigate('/login');
    } catch (error) {
      setFailure(userMessage(error));
    }
  });

  return (
    <form noValidate className={styles.form} onSubmit={submit} onKeyDown={blockEnter}>
      <p>{t('reset.intro')}</p>
      {PASSWORD_FIELDS.map(([name, label]) => (
        <FormField key={name} id={`reset-${name}`} label={t(label)} error={errors[name]?.message}>
          {(control) => (
            <input
              {...control}
              className="input"
              type="password"
              autoComplete="new-password"
              {...form.register(name)}
            />
          )}
        </FormField>
      ))}
      {failure && (
        <p className="form-error" role="alert">
          {failure} <Link href="/login">{t('reset.to-login')}</Link>
        </p>
      )}
      <button type="submit" className="button button--primary" disabled={isSubmitting}>
        {t('reset.save')}
      </button>
    </form>
  );
}
