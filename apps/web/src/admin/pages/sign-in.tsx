import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Redirect, useLocation, useSearch } from 'wouter';
import { adminApi, errorText, type Me, type Operator } from '../api';
import { LanguageToggle } from '../layout';
import { consoleQueryClient, meQueryKey, useMe } from '../session';
import { TotpField } from './setup';

/** A path inside the console to return to after signing in, never another site. */
function safeNext(next: string | null): string {
  return next?.startsWith('/') && !next.startsWith('//') && !next.startsWith('/sign-in') ? next : '/';
}

/** Sign-in: e-mail, password and the authenticator's code. */
export function SignInPage() {
  const { t } = useTranslation('admin');
  const params = new URLSearchParams(useSearch());
  const [, navigate] = useLocation();
  const me = useMe();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const next = safeNext(params.get('next'));

  if (me.data) return <Redirect to={next} replace />;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    setBusy(true);
    setError(null);
    try {
      await adminApi<{ operator: Operator }>('/session', {
        method: 'POST',
        json: {
          email: String(data.get('email')).trim(),
          password: String(data.get('password')),
          code: String(data.get('code')).trim(),
        },
        public: true,
      });
      const fresh = await adminApi<Me>('/me');
      consoleQueryClient.setQueryData(meQueryKey, fresh);
      navigate(next, { replace: true });
    } catch (failure) {
      setError(errorText(failure, t));
      setBusy(false);
    }
  }

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
      <form className="admin-form" onSubmit={submit}>
        <div className="field">
          <label className="field__label" htmlFor="sign-in-email">
            {t('fields.email')}
          </label>
          <input
            id="sign-in-email"
            name="email"
            className="input"
            type="email"
            autoComplete="username"
            maxLength={254}
            required
          />
        </div>
        <div className="field">
          <label className="field__label" htmlFor="sign-in-password">
            {t('fields.password')}
          </label>
          <input
            id="sign-in-password"
            name="password"
            className="input"
            type="password"
            autoComplete="current-password"
            maxLength={200}
            required
          />
        </div>
        <TotpField id="sign-in-code" />
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" className="button button--primary" disabled={busy} aria-busy={busy}>
          {t('sign-in.submit')}
        </button>
      </form>
    </main>
  );
}
