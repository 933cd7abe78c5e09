import { zodResolver } from '@hookform/resolvers/zod';
import { emailSchema } from '@tunes/shared/validation';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { FormField } from '@/components/form-field';
import { userMessage } from '@/lib/api-error';
import { toast } from '@/lib/toast';
import { forgotPassword } from '../api/passwords';
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
      <FormField id="forgot-email" label={t('email.address')} error={errors.email?.message}>
        {(control) => (
          <input
            {...control}
            className="input"
            type="email"
            autoComplete="email"
            {...form.register('email')}
          />
        )}
      </FormField>
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
