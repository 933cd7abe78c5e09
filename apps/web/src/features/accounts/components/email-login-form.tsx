import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { FormError, TextField } from '@/components/form-field';
import { userMessage } from '@/lib/api-error';
import { lazyZodResolver } from '@/lib/lazy-resolver';
import { loginEmailFromHistory } from '@/lib/login-link';
import { signInWithPassword } from '../api/sign-in';
import type { emailLoginSchema } from '../form-schemas';
import styles from './login-modal.module.css';

const resolver = lazyZodResolver(() => import('../form-schemas').then((schemas) => schemas.emailLoginSchema));
type Values = z.input<typeof emailLoginSchema>;

interface Props {
  onSignedIn(): void;
  onForgot(): void;
  onCreate(): void;
}

/** E-mail and password login (product.md §2), with links to forgot password and create account. */
export function EmailLoginForm({ onSignedIn, onForgot, onCreate }: Props) {
  const { t } = useTranslation('accounts');
  const [failure, setFailure] = useState('');
  const form = useForm<Values, unknown, z.output<typeof emailLoginSchema>>({
    resolver,
    // After a password reset, the address it was for (issue 37).
    defaultValues: { email: loginEmailFromHistory(), password: '' },
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
    <form noValidate onSubmit={submit} onFocus={resolver.warm}>
      <TextField
        id="login-email"
        label={t('email.address')}
        error={errors.email?.message}
        type="email"
        autoComplete="username"
        {...form.register('email')}
      />
      <TextField
        id="login-password"
        label={t('email.password')}
        error={errors.password?.message}
        type="password"
        autoComplete="current-password"
        {...form.register('password')}
      />
      {failure && <FormError>{failure}</FormError>}
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
