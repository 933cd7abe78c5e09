import { zodResolver } from '@hookform/resolvers/zod';
import { emailSchema } from '@tunes/shared/validation';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { userMessage } from '@/lib/api-error';
import { toast } from '@/lib/toast';
import { forgotPassword } from '../api/passwords';
import { FieldError } from './form-error';
import styles from './login-modal.module.css';

const schema = z.object({ email: emailSchema });
type Values = z.input<typeof schema>;

/** Forgot password (product.md §2): on success a toast and back to the login form. */
export function ForgotPasswordForm({ onDone }: { onDone(): void }) {
  const { t } = useTranslation('accounts');
  const [failure, setFailure] = useState('');
  const form = useForm<Values, unknown, z.output<typeof schema>>({
    resolver: zodResolver(schema),
    defaultValues: { email: '' },
  });
  const { errors, isSubmitting } = form.formState;

  const submit = form.handleSubmit(async ({ email }) => {
    setFailure('');
    try {
      await forgotPassword(email);
      toast.success(t('messages.forgot-success'));
      onDone();
    } catch (error) {
      setFailure(userMessage(error));
    }
  });

  return (
    <form noValidate onSubmit={submit}>
      <p>{t('email.forgot-intro')}</p>
      <div className="field">
        <label className="field__label" htmlFor="forgot-email">
          {t('email.address')}
        </label>
        <input
          id="forgot-email"
          className="input"
          type="email"
          autoComplete="email"
          aria-invalid={Boolean(errors.email)}
          aria-describedby={errors.email ? 'forgot-email-error' : undefined}
          {...form.register('email')}
        />
        <FieldError id="forgot-email-error" message={errors.email?.message} />
      </div>
      {failure && (
        <p className="form-error" role="alert">
          {failure}
        </p>
      )}
      <button type="submit" className="button button--primary button--block" disabled={isSubmitting}>
        {t('email.send-link')}
      </button>
      <div className={styles.links}>
        <button type="button" className="link-button" onClick={onDone}>
          {t('email.back-to-login')}
        </button>
      </div>
    </form>
  );
}
