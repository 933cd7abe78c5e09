import 'altcha/external';
import 'altcha/altcha.css';
import type { SendChallenge } from '@tunes/shared/send-codes';
import type {} from 'altcha/types/react';
import Pbkdf2Worker from 'altcha/workers/pbkdf2?worker';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { TranslationKey } from '@/lib/i18n';

// The external build ships no worker inline: ours is a file of the site's own origin, which the
// page's CSP allows (no blob: workers), and PBKDF2 is the one algorithm the server asks for.
globalThis.$altcha.algorithms.set('PBKDF2/SHA-256', () => new Pbkdf2Worker());

/** The widget's words, from the site's catalogue: ALTCHA ships no Mongolian. */
const WIDGET_TEXTS = [
  'ariaLinkLabel',
  'cancel',
  'enterCode',
  'enterCodeAria',
  'enterCodeFromImage',
  'error',
  'expired',
  'footer',
  'getAudioChallenge',
  'label',
  'loading',
  'reload',
  'verify',
  'verificationRequired',
  'verified',
  'verifying',
  'waitAlert',
] as const;

/** The widget as the sign-in forms use it: it solves at once, and hands over the payload. */
const CONFIGURATION = JSON.stringify({ hideFooter: true, hideLogo: true, humanInteractionSignature: false });

interface Props {
  challenge: SendChallenge;
  onSolved(proof: string): void;
}

/** ALTCHA's widget (`altcha`, decision 0037) on one challenge, solving it in a worker at once. */
export function AltchaWidget({ challenge, onSolved }: Props) {
  const { t, i18n } = useTranslation('accounts');
  const widget = useRef<HTMLElement>(null);
  const solved = useRef(onSolved);
  solved.current = onSolved;
  const language = i18n.language;
  globalThis.$altcha.i18n.set(
    language,
    Object.fromEntries(
      WIDGET_TEXTS.map((name) => [name, t(`send.widget.${name}` as TranslationKey<'accounts'>)]),
    ),
  );

  useEffect(() => {
    const element = widget.current;
    const onVerified = (event: Event) => {
      const { payload } = (event as CustomEvent<{ payload?: string }>).detail ?? {};
      if (payload) solved.current(payload);
    };
    element?.addEventListener('verified', onVerified);
    return () => element?.removeEventListener('verified', onVerified);
  }, []);

  return (
    <altcha-widget
      ref={widget}
      challenge={JSON.stringify(challenge)}
      configuration={CONFIGURATION}
      auto="onload"
      type="checkbox"
      language={language}
    />
  );
}
