import type { SendChallenge as Challenge } from '@tunes/shared/send-codes';
import { lazy, Suspense, useId } from 'react';
import { useTranslation } from 'react-i18next';
import styles from './login-modal.module.css';

/**
 * ALTCHA's widget and its proof-of-work worker: a chunk of their own, loaded only when a send
 * asks for a challenge, so no listener route's first paint carries them (DESIGN §6).
 */
const AltchaWidget = lazy(() =>
  import('./altcha-widget').then((module) => ({ default: module.AltchaWidget })),
);

interface Props {
  challenge: Challenge;
  /** The challenge is solved: ALTCHA's payload, the `proof` of the send asked again. */
  onSolved(proof: string): void;
}

/**
 * The check a send needs once the listener's network has asked for many codes this hour
 * (security.md "Sends"): why, then the widget, which starts solving at once in a worker. A new
 * challenge (a refused answer) starts a new widget.
 */
export function SendChallenge({ challenge, onSolved }: Props) {
  const { t } = useTranslation('accounts');
  const introId = useId();
  return (
    <section className={styles.challenge} aria-labelledby={introId}>
      <p id={introId}>{t('send.challenge-intro')}</p>
      <Suspense fallback={<p role="status">{t('send.challenge-loading')}</p>}>
        <AltchaWidget key={challenge.signature} challenge={challenge} onSolved={onSolved} />
      </Suspense>
    </section>
  );
}
