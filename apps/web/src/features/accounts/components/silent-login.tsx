import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useSearch } from 'wouter';
import { FormError } from '@/components/form-field';
import type { TokenResponse } from '@/lib/api-client';
import { userMessage } from '@/lib/api-error';
import { toast } from '@/lib/toast';
import { storeSession } from '../api/sign-in';
import { validateHmac } from '../api/validate-hmac';

/** One validation per token, even when React runs the effect twice: a token works once. */
const attempts = new Map<string, Promise<TokenResponse>>();

/**
 * Silent login from `/premium?userId=…&token=…` (product.md §4): validates the HMAC token, stores the
 * session and goes to /profile with a Mongolian toast; on failure a Mongolian toast and the error
 * (`api/validate-hmac.ts`).
 */
export function SilentLogin() {
  const params = new URLSearchParams(useSearch());
  const userId = params.get('userId');
  const token = params.get('token');
  // Without a token there is nothing to show: the page does not wait for the accounts texts.
  if (!userId || !token) return null;
  return <SilentLoginCheck userId={userId} token={token} />;
}

function SilentLoginCheck({ userId, token }: { userId: string; token: string }) {
  const { t } = useTranslation('accounts');
  const [, navigate] = useLocation();
  const [state, setState] = useState<{ status: 'idle' | 'checking' | 'error'; message?: string }>({
    status: 'idle',
  });

  useEffect(() => {
    let current = true;
    setState({ status: 'checking' });
    let attempt = attempts.get(token);
    if (!attempt) {
      attempt = validateHmac(userId, token);
      attempts.set(token, attempt);
    }
    attempt
      .then(async (tokens) => {
        if (!current) return;
        await storeSession(tokens);
        toast.success(t('silent.success'));
        // Within the app (no reload), so the success toast stays on screen over /profile.
        navigate('/profile', { replace: true });
      })
      .catch((error: unknown) => {
        // The API client toasted the Mongolian 'log in again'; the product.md §8 text stays on the page.
        if (current) setState({ status: 'error', message: userMessage(error) });
      });
    return () => {
      current = false;
    };
  }, [userId, token, t, navigate]);

  // Above the page, within its margins (not edge to edge).
  if (state.status === 'checking') {
    return (
      <div className="page-notice">
        <p role="status" aria-live="polite">
          {t('silent.checking')}
        </p>
      </div>
    );
  }
  if (state.status === 'error') {
    return (
      <div className="page-notice">
        <FormError>{state.message}</FormError>
      </div>
    );
  }
  return null;
}
