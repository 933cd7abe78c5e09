import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLinks } from './nav-links';

/**
 * The slide-out menu of screens up to 1024 px (product.md §2): home, premium (hidden when subscribed),
 * terms, FAQ, contact and a copyright line. A modal dialog: Escape and the backdrop close it.
 */
export function MobileMenu({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('common');
  const dialog = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) element.showModal();
    if (!open && element.open) element.close();
  }, [open]);

  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: a click on the backdrop closes; the keyboard closes with Escape natively.
    <dialog
      id="mobile-menu"
      ref={dialog}
      className="mobile-menu"
      aria-label={t('nav.menu')}
      onClose={onClose}
      onClick={(event) => {
        if (event.target === dialog.current) onClose();
      }}
    >
      <div className="mobile-menu__panel">
        <button
          type="button"
          className="mobile-menu__close"
          aria-label={t('nav.close-menu')}
          onClick={onClose}
        >
          ×
        </button>
        <nav aria-label={t('nav.main')}>
          <NavLinks includeHome onNavigate={onClose} />
        </nav>
        <p className="mobile-menu__copyright">{t('copyright', { year: new Date().getFullYear() })}</p>
      </div>
    </dialog>
  );
}
