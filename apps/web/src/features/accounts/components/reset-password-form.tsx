import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import type { z } from 'zod';
import { FormError } from '@/components/form-field';
import { userMessage } from '@/lib/api-error';
import { lazyZodResolver } from '@/lib/lazy-resolver';
import { loginHref } from '@/lib/login-link';
import { toast } from '@/lib/toast';
import { resetPassword } from '../api/passwords';
import type { resetPasswordSchema } from '../form-schemas';
import { blockEnter } from './block-enter';
import { NewPasswordFields } from './new-password-fields';
import styles from './profile.module.css';

const resolver = lazyZodResolver(() =>
  import('../form-schemas').then((schemas) => schemas.resetPasswordSchema),
);
type Values = z.input<typeof resetPasswordSchema>;

/** Sets a new password with the token of the e-mailed link, then sends the user to log in. */
export function ResetPasswordForm({ token }: { token: string | null }) {
  const { t } = useTranslation('accounts');
  const [, navigate] = useLocation();
  const [failure, setFailure] = useState('');
  const form = useForm<Values>({
    resolver,
    defaultValues: { password: '', confirm: '' },
  });
  const { errors, isSubmitting } = form.formState;

  if (!token) {
    return <FormError>{t('reset.missing')}</FormError>;
  }

  const submit = form.handleSubmit(async ({ password }) => {
    setFailure('');
    try {
      const { Email } = await resetPassword(token, password);
      toast.success(t('reset.done'));
      navigate(loginHref({ method: 'email' }), { state: { email: Email ?? '' } });
    } catch (error) {
      setFailure(userMessage(error));
    }
  });

  return (
    <form noValidate className={styles.form} onSubmit={submit} onFocus={resolver.warm} onKeyDown={blockEnter}>
      <p>{t('reset.intro')}</p>
      <NewPasswordFields
        id="reset"
        passwordLabel={t('reset.new-password')}
        register={form.register}
        errors={errors}
      />
      {failure && (
        <FormError>
          {failure} <Link href={loginHref({ method: 'email' })}>{t('reset.to-login')}</Link>
        </FormError>
      )}
      <button type="submit" className="button button--primary" disabled={isSubmitting}>
        {t('reset.save')}
      </button>
    </form>
  );
}
