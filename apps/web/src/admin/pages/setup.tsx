import { useQuery } from '@tanstack/react-query';
import { setupCompleteSchema } from '@tunes/shared/console';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useLocation, useSearch } from 'wouter';
import { z } from 'zod';
import { FormError, TextField } from '@/components/form-field';
import { adminApi, type Me, type Operator } from '../api';
import { QueryState } from '../components';
import { schemaResolver, showFailure } from '../forms';
import { LanguageToggle } from '../layout';
import { consoleQueryClient, meQueryKey } from '../session';
import { TotpField } from './totp-field';

interface SetupStart {
  email: string;
  role: Operator['role'];
  otpauthUri: string;
  qrDataUrl: string;
  secret: string;
}

export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 200;

/** The set-up form: the shared schema less the link's token, the password at its length, twice. */
const setupFormSchema = setupCompleteSchema
  .omit({ token: true })
  .extend({ password: setupCompleteSchema.shape.password.min(PASSWORD_MIN), repeat: z.string() })
  .refine((values) => values.password === values.repeat, {
    message: 'validation.passwords-do-not-match',
    path: ['repeat'],
  });
const resolver = schemaResolver(setupFormSchema);
type Values = z.input<typeof setupFormSchema>;

/** The one-time set-up link: choose a password, add the TOTP secret to an app, confirm a code. */
export function SetupPage() {
  const { t } = useTranslation('admin');
  const token = new URLSearchParams(useSearch()).get('token') ?? '';
  const [, navigate] = useLocation();
  const start = useQuery({
    queryKey: ['admin', 'setup', token],
    queryFn: () => adminApi<SetupStart>('/setup/start', { method: 'POST', json: { token }, public: true }),
    enabled: token !== '',
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
  const form = useForm<Values, unknown, z.output<typeof setupFormSchema>>({
    resolver,
    defaultValues: { password: '', repeat: '', code: '' },
  });
  const { errors, isSubmitting } = form.formState;

  const submit = form.handleSubmit(async ({ password, code }) => {
    try {
      await adminApi<{ operator: Operator }>('/setup/complete', {
        method: 'POST',
        json: { token, password, code },
        public: true,
      });
      consoleQueryClient.setQueryData<Me | null>(meQueryKey, null);
      await consoleQueryClient.invalidateQueries({ queryKey: meQueryKey });
      navigate('/');
    } catch (failure) {
      showFailure(form, failure);
    }
  });

  return (
    <main className="admin-narrow" id="admin-main">
      <div className="admin-topline">
        <h1 className="admin-title">{t('setup.title')}</h1>
        <LanguageToggle />
      </div>
      {!token && <FormError>{t('errors.setup_link_invalid')}</FormError>}
      {token && <QueryState pending={start.isPending} error={start.error} />}
      {start.data && (
        <form className="admin-form" noValidate onSubmit={submit}>
          <p>{t('setup.intro', { email: start.data.email, role: t(`roles.${start.data.role}`) })}</p>
          <TextField
            id="setup-password"
            label={t('fields.password')}
            hint={t('setup.password-hint', { min: PASSWORD_MIN })}
            error={errors.password?.message}
            type="password"
            autoComplete="new-password"
            maxLength={PASSWORD_MAX}
            {...form.register('password')}
          />
          <TextField
            id="setup-repeat"
            label={t('setup.repeat')}
            error={errors.repeat?.message}
            type="password"
            autoComplete="new-password"
            maxLength={PASSWORD_MAX}
            {...form.register('repeat')}
          />
          <h2 className="admin-subtitle">{t('setup.authenticator')}</h2>
          <p>{t('setup.scan')}</p>
          <img
            className="admin-qr"
            src={start.data.qrDataUrl}
            alt={t('setup.qr-alt')}
            width={200}
            height={200}
          />
          <p>
            {t('setup.secret')} <code data-testid="totp-secret">{start.data.secret}</code>
          </p>
          <TotpField id="setup-code" error={errors.code?.message} registration={form.register('code')} />
          {errors.root?.server && <FormError>{errors.root.server.message}</FormError>}
          <button
            type="submit"
            className="button button--primary"
            disabled={isSubmitting}
            aria-busy={isSubmitting}
          >
            {t('setup.submit')}
          </button>
        </form>
      )}
    </main>
  );
}
