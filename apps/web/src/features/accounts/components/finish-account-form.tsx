import { zodResolver } from '@hookform/resolvers/zod';
import { REGISTRATION_COUNTRIES } from '@tunes/shared/accounts';
import { newPasswordSchema } from '@tunes/shared/validation';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { userMessage } from '@/lib/api-error';
import { toast } from '@/lib/toast';
import { registerByEmail } from '../api/register';
import { signInWithPassword } from '../api/sign-in';
import { FieldError } from './form-error';

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
      <div className="field">
        <label className="field__label" htmlFor="finish-email">
          {t('email.address')}
        </label>
        <input id="finish-email" className="input" type="email" value={email} readOnly />
      </div>
      <div className="field">
        <label className="field__label" htmlFor="finish-country">
          {t('email.country')}
        </label>
        <select id="finish-country" className="select" {...form.register('country')}>
          <option value="MN">{t('email.country-mn')}</option>
          <option value="AU">{t('email.country-row')}</option>
        </select>
        <FieldError id="finish-country-error" message={errors.country?.message} />
      </div>
      <div className="field">
        <label className="field__label" htmlFor="finish-password">
          {t('email.password')}
        </label>
        <input
          id="finish-password"
          className="input"
          type="password"
          autoComplete="new-password"
          aria-invalid={Boolean(errors.password)}
          aria-describedby={errors.password ? 'finish-password-error' : undefined}
          {...form.register('password')}
        />
        <FieldError id="finish-password-error" message={errors.password?.message} />
      </div>
      <div className="field">
        <label className="field__label" htmlFor="finish-confirm">
          {t('email.confirm-password')}
        </label>
        <input
          id="finish-confirm"
          className="input"
          type="password"
          autoComplete="new-password"
          aria-invalid={Boolean(errors.confirm)}
          aria-describedby={errors.confirm ? 'finish-confirm-error' : undefined}
          {...form.register('confirm')}
        />
        <FieldError id="finish-confirm-error" message={errors.confirm?.message} />
      </div>
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
