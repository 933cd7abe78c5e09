import { zodResolver } from '@hookform/resolvers/zod';
import { newPasswordSchema } from '@tunes/shared/validation';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import { z } from 'zod';
import { userMessage } from '@/lib/api-error';
import { toast } from '@/lib/toast';
import { resetPassword } from '../api/passwords';
import { blockEnter } from './block-enter';
import { FieldError } from './form-error';
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
      <div className="field">
        <label className="field__label" htmlFor="reset-password">
          {t('reset.new-password')}
        </label>
        <input
          id="reset-password"
          className="input"
          type="password"
          autoComplete="new-password"
          aria-invalid={Boolean(errors.password)}
          aria-describedby={errors.password ? 'reset-password-error' : undefined}
          {...form.register('password')}
        />
        <FieldError id="reset-password-error" message={errors.password?.message} />
      </div>
      <div className="field">
        <label className="field__label" htmlFor="reset-confirm">
          {t('email.confirm-password')}
        </label>
        <input
          id="reset-confirm"
          className="input"
          type="password"
          autoComplete="new-password"
          aria-invalid={Boolean(errors.confirm)}
          aria-describedby={errors.confirm ? 'reset-confirm-error' : undefined}
          {...form.register('confirm')}
        />
        <FieldError id="reset-confirm-error" message={errors.confirm?.message} />
      </div>
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
