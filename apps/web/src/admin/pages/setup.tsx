import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useSearch } from 'wouter';
import { adminApi, errorText, type Me, type Operator } from '../api';
import { LanguageToggle } from '../layout';
import { consoleQueryClient, meQueryKey } from '../session';

interface SetupStart {
  email: string;
  role: Operator['role'];
  otpauthUri: string;
  qrDataUrl: string;
  secret: string;
}

export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 200;

/** The one-time set-up link: choose a password, add the TOTP secret to an app, confirm a code. */
export function SetupPage() {
  const { t } = useTranslation('admin');
  const token = new URLSearchParams(useSearch()).get('token') ?? '';
  const [, navigate] = useLocation();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const start = useQuery({
    queryKey: ['admin', 'setup', token],
    queryFn: () => adminApi<SetupStart>('/setup/start', { method: 'POST', json: { token }, public: true }),
    enabled: token !== '',
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const password = String(data.get('password'));
    if (password !== String(data.get('repeat'))) {
      setError(t('setup.mismatch'));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await adminApi<{ operator: Operator }>('/setup/complete', {
        method: 'POST',
        json: { token, password, code: String(data.get('code')).trim() },
        public: true,
      });
      consoleQueryClient.setQueryData<Me | null>(meQueryKey, null);
      await consoleQueryClient.invalidateQueries({ queryKey: meQueryKey });
      navigate('/');
    } catch (failure) {
      setError(errorText(failure, t));
      setBusy(false);
    }
  }

  return (
    <main className="admin-narrow" id="admin-main">
      <div className="admin-topline">
        <h1 className="admin-title">{t('setup.title')}</h1>
        <LanguageToggle />
      </div>
      {!token && (
        <p className="form-error" role="alert">
          {t('errors.setup_link_invalid')}
        </p>
      )}
      {start.isPending && token && <p role="status">{t('loading')}</p>}
      {start.isError && (
        <p className="form-error" role="alert">
          {errorText(start.error, t)}
        </p>
      )}
      {start.data && (
        <form className="admin-form" onSubmit={submit}>
          <p>{t('setup.intro', { email: start.data.email, role: t(`roles.${start.data.role}`) })}</p>
          <div className="field">
            <label className="field__label" htmlFor="setup-password">
              {t('fields.password')}
            </label>
            <input
              id="setup-password"
              name="password"
              className="input"
              type="password"
              autoComplete="new-password"
              minLength={PASSWORD_MIN}
              maxLength={PASSWORD_MAX}
              required
              aria-describedby="setup-password-hint"
            />
            <span id="setup-password-hint" className="field__hint">
              {t('setup.password-hint', { min: PASSWORD_MIN })}
            </span>
          </div>
          <div className="field">
            <label className="field__label" htmlFor="setup-repeat">
              {t('setup.repeat')}
            </label>
            <input
              id="setup-repeat"
              name="repeat"
              className="input"
              type="password"
              autoComplete="new-password"
              minLength={PASSWORD_MIN}
              maxLength={PASSWORD_MAX}
              required
            />
          </div>
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
          <TotpField id="setup-code" />
          {error && (
            <p className="form-error" role="alert">
              {error}
            </p>
          )}
          <button type="submit" className="button button--primary" disabled={busy} aria-busy={busy}>
            {t('setup.submit')}
          </button>
        </form>
      )}
    </main>
  );
}

/** The six-digit code of the authenticator app. */
export function TotpField({ id }: { id: string }) {
  const { t } = useTranslation('admin');
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {t('fields.code')}
      </label>
      <input
        id={id}
        name="code"
        className="input admin-code"
        inputMode="numeric"
        autoComplete="one-time-code"
        pattern="[0-9]{6}"
        maxLength={6}
        required
        aria-describedby={`${id}-hint`}
      />
      <span id={`${id}-hint`} className="field__hint">
        {t('fields.code-hint')}
      </span>
    </div>
  );
}
