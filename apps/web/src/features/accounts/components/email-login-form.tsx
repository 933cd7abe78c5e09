import { zodResolver } from '@hookform/resolvers/zod';
import { emailSchema, loginPasswordSchema } from '@tunes/shared/validation';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { userMessage } from '@/lib/api-error';
import { signInWithPassword } from '../api/sign-in';
import { FieldError } from './form-error';
import styles from './login-modal.module.css';

const schema = z.object({ email: emailSchema, password: loginPasswordSchema });
type Values = z.input<typeof schema>;

interface Props {
  onSignedIn(): void;
  onForgot(): void;
  onCreate(): void;
}

/** E-mail and password login (product.md §2), with links to forgot password and create account. */
export function EmailLoginForm({ onSignedIn, onForgot, onCreate }: Props) {
  const { t } = useTranslation('accounts');
  const [failure, setFailure] = useState('');
  const form = useForm<Values, unknown, z.output<typeof schema>>({
    resolver: zodResolver(schema),
    defaultValues: { email: '', password: '' },
  });
  const { errors, isSubmitting } = form.formState;

  const submit = form.handleSubmit(async ({ email, password }) => {
    setFailure('');
    try {
      await signInWithPassword(email, password);
    } catch (error) {
      setFailure(userMessage(error));
      return;
    }
    onSignedIn();
  });

  return (
    <form noValidate onSubmit={submit}>
      <div className="field">
        <label className="field__label" htmlFor="login-email">
          {t('email.address')}
        </label>
        <input
          id="login-email"
          className="input"
          type="email"
          autoComplete="username"
          aria-invalid={Boolean(errors.email)}
          aria-describedby={errors.email ? 'login-email-error' : undefined}
          {...form.register('email')}
        />
        <FieldError id="login-email-error" message={errors.email?.message} />
      </div>
      <div className="field">
        <label className="field__label" htmlFor="login-password">
          {t('email.password')}
        </label>
        <input
          id="login-password"
          className="input"
          type="password"
          autoComplete="current-password"
          aria-invalid={Boolean(errors.password)}
          aria-describedby={errors.password ? 'login-password-error' : undefined}
          {...form.register('password')}
        />
        <FieldError id="login-password-error" message={errors.password?.message} />
      </div>
      {failure && (
        <p className="form-error" role="alert">
          {failure}
        </p>
      )}
      <button type="submit" className="button button--primary button--block" disabled={isSubmitting}>
        {t('email.login')}
      </button>
      <div className={styles.links}>
        <button type="button" className="link-button" onClick={onForgot}>
          {t('email.forgot')}
        </button>
        <button type="button" className="link-button" onClick={onCreate}>
          {t('email.create')}
        </button>
      </div>
    </form>
  );
}
