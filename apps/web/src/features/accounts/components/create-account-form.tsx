import { zodResolver } from '@hookform/resolvers/zod';
import { RESEND_COUNTDOWN_SECONDS } from '@tunes/shared/constants';
import { emailSchema } from '@tunes/shared/validation';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { FormField } from '@/components/form-field';
import { userMessage } from '@/lib/api-error';
import { requestOtp } from '../api/otp';
import styles from './login-modal.module.css';

const schema = z.object({ email: emailSchema });
type Values = z.input<typeof schema>;

interface Props {
  /** The code went out (or was already sent): verify next, resend after `resendIn` seconds. */
  onCodeSent(email: string, resendIn: number): void;
  onBack(): void;
}

/** Create an account, step 1 (product.md §2): the e-mail address that receives a code. */
export function CreateAccountForm({ onCodeSent, onBack }: Props) {
  const { t, i18n } = useTranslation('accounts');
  const [failure, setFailure] = useState('');
  const form = useForm<Values, unknown, z.output<typeof schema>>({
    resolver: zodResolver(schema),
    defaultValues: { email: '' },
  });
  const { errors, isSubmitting } = form.formState;

  const submit = form.handleSubmit(async ({ email }) => {
    setFailure('');
    try {
      const { resendIn } = await requestOtp({ email }, i18n.language, { resendIn: RESEND_COUNTDOWN_SECONDS });
      onCodeSent(email, resendIn);
    } catch (error) {
      setFailure(userMessage(error));
    }
  });

  return (
    <form noValidate onSubmit={submit}>
      <p>{t('email.create-intro')}</p>
      <FormField id="create-email" label={t('email.address')} error={errors.email?.message}>
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
        {t('email.request-code')}
      </button>
      <div className={styles.links}>
        <button type="button" className="link-button" onClick={onBack}>
          {t('email.back-to-login')}
        </button>
      </div>
    </form>
  );
}
