import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { FormError, FormField, TextField } from '@/components/form-field';
import { userMessage } from '@/lib/api-error';
import { activeLanguage } from '@/lib/i18n';
import { lazyZodResolver } from '@/lib/lazy-resolver';
import { toast } from '@/lib/toast';
import { registerByEmail } from '../api/register';
import { signInWithPassword } from '../api/sign-in';
import type { finishAccountSchema } from '../form-schemas';
import { NewPasswordFields } from './new-password-fields';

const resolver = lazyZodResolver(() =>
  import('../form-schemas').then((schemas) => schemas.finishAccountSchema),
);

type Values = z.input<typeof finishAccountSchema>;

interface Props {
  email: string;
  otp: string;
  onSignedIn(): void;
}

/** Finish the account (product.md §2): e-mail fixed, country, password twice → created → logged in. */
export function FinishAccountForm({ email, otp, onSignedIn }: Props) {
  const { t } = useTranslation('accounts');
  const [failure, setFailure] = useState('');
  const form = useForm<Values, unknown, z.output<typeof finishAccountSchema>>({
    resolver,
    defaultValues: { country: 'MN', password: '', confirm: '' },
  });
  const { errors, isSubmitting } = form.formState;

  const submit = form.handleSubmit(async ({ country, password }) => {
    setFailure('');
    try {
      await registerByEmail({ email, password, country, otp, language: activeLanguage() });
      toast.success(t('messages.account-created-successfully'));
      await signInWithPassword(email, password, { country });
    } catch (error) {
      setFailure(userMessage(error));
      return;
    }
    onSignedIn();
  });

  return (
    <form noValidate onSubmit={submit} onFocus={resolver.warm}>
      <TextField id="finish-email" label={t('email.address')} type="email" value={email} readOnly />
      <FormField id="finish-country" label={t('email.country')} error={errors.country?.message}>
        {(control) => (
          <select {...control} className="select" {...form.register('country')}>
            <option value="MN">{t('email.country-mn')}</option>
            <option value="AU">{t('email.country-row')}</option>
          </select>
        )}
      </FormField>
      <NewPasswordFields
        id="finish"
        passwordLabel={t('email.password')}
        register={form.register}
        errors={errors}
      />
      {failure && <FormError>{failure}</FormError>}
      <button type="submit" className="button button--primary button--block" disabled={isSubmitting}>
        {t('email.create-account')}
      </button>
    </form>
  );
}
