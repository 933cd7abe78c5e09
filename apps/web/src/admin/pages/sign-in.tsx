import { signInSchema } from '@tunes/shared/console';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Redirect, useLocation, useSearch } from 'wouter';
import type { z } from 'zod';
import { FormError, TextField } from '@/components/form-field';
import { adminApi, type Me, type Operator } from '../api';
import { schemaResolver, showFailure } from '../forms';
import { LanguageToggle } from '../layout';
import { consoleQueryClient, meQueryKey, useMe } from '../session';
import { TotpField } from './totp-field';

/** A path inside the console to return to after signing in, never another site. */
function safeNext(next: string | null): string {
  return next?.startsWith('/') && !next.startsWith('//') && !next.startsWith('/sign-in') ? next : '/';
}

const resolver = schemaResolver(signInSchema);
type Values = z.input<typeof signInSchema>;

/** Sign-in: e-mail, password and the authenticator's code. */
export function SignInPage() {
  const { t } = useTranslation('admin');
  const params = new URLSearchParams(useSearch());
  const [, navigate] = useLocation();
  const me = useMe();
  const next = safeNext(params.get('next'));
  const form = useForm<Values, unknown, z.output<typeof signInSchema>>({
    resolver,
    defaultValues: { email: '', password: '', code: '' },
  });
  const { errors, isSubmitting } = form.formState;

  if (me.data) return <Redirect to={next} replace />;

  const submit = form.handleSubmit(async (values) => {
    try {
      await adminApi<{ operator: Operator }>('/session', { method: 'POST', json: values, public: true });
      const fresh = await adminApi<Me>('/me');
      consoleQueryClient.setQueryData(meQueryKey, fresh);
      navigate(next, { replace: true });
    } catch (failure) {
      // Which part was wrong is never said (docs/console-api.md §2): the form's error, not a field's.
      showFailure(form, failure);
    }
  });

  return (
    <main className="admin-narrow" id="admin-main">
      <div className="admin-topline">
        <h1 className="admin-title">{t('sign-in.title')}</h1>
        <LanguageToggle />
      </div>
      {params.has('expired') && (
        <p className="form-error" role="status">
          {t('sign-in.expired')}
        </p>
      )}
      {params.has('signedOut') && (
        <p className="form-success" role="status">
          {t('sign-in.signed-out')}
        </p>
      )}
      <form className="admin-form" noValidate onSubmit={submit}>
        <TextField
          id="sign-in-email"
          label={t('fields.email')}
          error={errors.email?.message}
          type="email"
          autoComplete="username"
          maxLength={254}
          {...form.register('email')}
        />
        <TextField
          id="sign-in-password"
          label={t('fields.password')}
          error={errors.password?.message}
          type="password"
          autoComplete="current-password"
          maxLength={200}
          {...form.register('password')}
        />
        <TotpField id="sign-in-code" error={errors.code?.message} registration={form.register('code')} />
        {errors.root?.server && <FormError>{errors.root.server.message}</FormError>}
        <button
          type="submit"
          className="button button--primary"
          disabled={isSubmitting}
          aria-busy={isSubmitting}
        >
          {t('sign-in.submit')}
        </button>
      </form>
    </main>
  );
}
