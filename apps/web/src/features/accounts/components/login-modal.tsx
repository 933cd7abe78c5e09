import { type KeyboardEvent, lazy, Suspense, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TranslationKey } from '@/lib/i18n';
import type { LoginMethod } from '@/lib/login-link';
import { goToProfile } from '../api/sign-in';
import { blockEnter } from './block-enter';
import styles from './login-modal.module.css';
import { MobileLogin } from './mobile-login';

interface Props {
  /** After a successful sign-in; by default go to /profile and reload (product.md §4). */
  onSignedIn?: () => void;
  /** The close button; hidden when not given. */
  onClose?: () => void;
  /** The side the switch opens on; Mobile by default (product.md §2). */
  initialMethod?: LoginMethod;
}

/** The e-mail side (sign-in, registration, password reset): its own chunk, loaded when chosen. */
const loadEmailAuth = () => import('./email-auth');
const EmailAuth = lazy(() => loadEmailAuth().then((module) => ({ default: module.EmailAuth })));

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select, textarea, [tabindex="0"]';

/** Keeps Tab and Shift+Tab inside the modal (it is aria-modal), wrapping at either end. */
function keepFocusInside(event: KeyboardEvent<HTMLElement>) {
  if (event.key !== 'Tab') return;
  const focusable = [...event.currentTarget.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
    (element) => element.getClientRects().length > 0,
  );
  const first = focusable[0];
  const last = focusable[focusable.length - 1];
  if (!first || !last) return;
  const active = document.activeElement;
  if (event.shiftKey && (active === first || active === event.currentTarget)) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && active === last) {
    event.preventDefault();
    first.focus();
  }
}

const METHODS = [
  { name: 'mobile', label: 'modal.mobile' },
  { name: 'email', label: 'modal.email' },
] as const satisfies readonly { name: string; label: TranslationKey<'accounts'> }[];

/** The login-or-register modal of product.md §2: Mobile (default) or E-mail. */
export function LoginModal({ onSignedIn = goToProfile, onClose, initialMethod = 'mobile' }: Props) {
  const { t } = useTranslation('accounts');
  const { t: tc } = useTranslation('common');
  const [method, setMethod] = useState<LoginMethod>(initialMethod);
  const titleId = useId();
  const dialogRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    dialogRef.current?.focus();
    if (!onClose) return;
    const onEscape = (event: globalThis.KeyboardEvent) => {
      if (event.key === 'Escape') onClose();
    };
    document.addEventListener('keydown', onEscape);
    return () => document.removeEventListener('keydown', onEscape);
  }, [onClose]);

  return (
    <div className="modal-backdrop">
      <div
        ref={dialogRef}
        className="modal"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        onKeyDown={(event) => {
          blockEnter(event);
          keepFocusInside(event);
        }}
      >
        {onClose && (
          <button type="button" className="modal__close" aria-label={t('modal.close')} onClick={onClose}>
            ×
          </button>
        )}
        <h2 id={titleId} className={styles.title}>
          {t('modal.title')}
        </h2>
        <fieldset className={styles.switch}>
          <legend className="visually-hidden">{t('modal.method')}</legend>
          {METHODS.map(({ name, label }) => (
            <button
              key={name}
              type="button"
              className={styles.switchButton}
              aria-pressed={method === name}
              // Pointing at the e-mail side starts loading it, so it is usually there when chosen.
              onPointerEnter={name === 'email' ? () => void loadEmailAuth() : undefined}
              onFocus={name === 'email' ? () => void loadEmailAuth() : undefined}
              onClick={() => setMethod(name)}
            >
              {t(label)}
            </button>
          ))}
        </fieldset>
        {method === 'mobile' ? (
          <MobileLogin onSignedIn={onSignedIn} />
        ) : (
          <Suspense fallback={<p role="status">{tc('loading')}</p>}>
            <EmailAuth onSignedIn={onSignedIn} />
          </Suspense>
        )}
      </div>
    </div>
  );
}
