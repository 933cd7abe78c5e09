import { zodResolver } from '@hookform/resolvers/zod';
import { REGISTRATION_COUNTRIES } from '@tunes/shared/accounts';
import { newPasswordSchema } from '@tunes/shared/validation';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { FormField } from '@/components/form-field';
import { userMessage } from '@/lib/api-error';
import type { TranslationKey } from '@/lib/i18n';
import { toast } from '@/lib/toast';
import { registerByEmail } from '../api/register';
import { signInWithPassword } from '../api/sign-in';

/** product.md §5 registration rules: both required, at least 6 characters, matching. */
export const finishAccountSchema = z
  .object({
    country: z.enum(REGISTRATION_COUNTRIES, { error: 'validation.country' }),
    password: z.string(),
    confirm: z.string(),
  })
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
      return;
    }
    if (password !== confirm) {
      ctx.addIssue({ code: 'custom', path: ['confirm'], message: 'validation.passwords-do-not-match' });
    }
  });

type Values = z.input<typeof finishAccountSchema>;
const PASSWORD_FIELDS = [
  ['password', 'email.password'],
  ['confirm', 'email.confirm-password'],
] as const satisfies readonly (readonly [keyof Values, TranslationKey<'accounts'>])[];

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
    resolver: zodResolver(finishAccountSchema),
    defaultValues: { country: 'MN', password: '', confirm: '' },
  });
  const { errors, isSubmitting } = form.formState;

  const submit = form.handleSubmit(async ({ country, password }) => {
    setFailure('');
    try {
      await registerByEmail({ email, password, country, otp });
      toast.success(t('messages.account-created-successfully'));
      await signInWithPassword(email, password, { country });
    } catch (error) {
      setFailure(userMessage(error));
      return;
    }
    onSignedIn();
  });

  return (
    <form noValidate onSubmit={submit}>
      <FormField id="finish-email" label={t('email.address')}>
        {(control) => <input {...control} className="input" type="email" value={email} readOnly />}
      </FormField>
      <FormField id="finish-country" label={t('email.country')} error={errors.country?.message}>
        {(control) => (
          <select {...control} className="select" {...form.register('country')}>
            <option value="MN">{t('email.country-mn')}</option>
            <option value="AU">{t('email.country-row')}</option>
          </select>
        )}
      </FormField>
      {PASSWORD_FIELDS.map(([name, label]) => (
        <FormField key={name} id={`finish-${name}`} label={t(label)} error={errors[name]?.message}>
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
          {failure}
        </p>
      )}
      <button type="submit" className="button button--primary button--block" disabled={isSubmitting}>
        {t('email.create-account')}
      </button>
    </form>
  );
}
