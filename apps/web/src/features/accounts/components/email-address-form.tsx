import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { FormError, TextField } from '@/components/form-field';
import { userMessage } from '@/lib/api-error';
import { lazyZodResolver } from '@/lib/lazy-resolver';
import type { emailAddressSchema } from '../form-schemas';
import styles from './login-modal.module.css';

const resolver = lazyZodResolver(() =>
  import('../form-schemas').then((schemas) => schemas.emailAddressSchema),
);
type Values = z.input<typeof emailAddressSchema>;

interface Props {
  /** The field's id. */
  id: string;
  intro: string;
  submitLabel: string;
  /** Does the form's one thing with the address; what it throws is shown above the button. */
  onSubmit(email: string): Promise<void>;
  onBack(): void;
}

/** One e-mail address for one step of the e-mail flow (create an account, forgot password). */
export function EmailAddressForm({ id, intro, submitLabel, onSubmit, onBack }: Props) {
  const { t } = useTranslation('accounts');
  const [failure, setFailure] = useState('');
  const form = useForm<Values, unknown, z.output<typeof emailAddressSchema>>({
    resolver,
    defaultValues: { email: '' },
  });
  const { errors, isSubmitting } = form.formState;

  const submit = form.handleSubmit(async ({ email }) => {
    setFailure('');
    try {
      await onSubmit(email);
    } catch (error) {
      setFailure(userMessage(error));
    }
  });

  return (
    <form noValidate onSubmit={submit} onFocus={resolver.warm}>
      <p>{intro}</p>
      <TextField
        id={id}
        label={t('email.address')}
        error={errors.email?.message}
        type="email"
        autoComplete="email"
        {...form.register('email')}
      />
      {failure && <FormError>{failure}</FormError>}
      <button type="submit" className="button button--primary button--block" disabled={isSubmitting}>
        {submitLabel}
      </button>
      <div className={styles.links}>
        <button type="button" className="link-button" onClick={onBack}>
          {t('email.back-to-login')}
        </button>
      </div>
    </form>
  );
}
