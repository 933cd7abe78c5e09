import { type ReactNode, useEffect, useId, useLayoutEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import styles from './dialog.module.css';

interface Props {
  open: boolean;
  title: string;
  /** Called once the dialog has closed: Escape, the close button, or `open` turned false. */
  onClose(): void;
  /** Red title and border for what cannot be undone. */
  danger?: boolean;
  /** `alertdialog` for a question that interrupts (a confirmation); its text is the description. */
  role?: 'dialog' | 'alertdialog';
  /** The id of the element that describes the dialog (an alert dialog's question). */
  describedBy?: string;
  children: ReactNode;
}

/**
 * A modal dialog on the native `<dialog>`: `showModal()` keeps focus inside and makes the page
 * behind inert, Escape closes, and closing — or removing it while open — returns focus to the
 * control that opened it. Its content mounts only while open, so each opening starts fresh.
 */
export function Dialog({ open, title, onClose, danger = false, role, describedBy, children }: Props) {
  const { t } = useTranslation('common');
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    if (open && !element.open) {
      element.showModal();
      // The control marked `data-autofocus` takes focus, else the title: nothing is pressed by accident.
      const first = element.querySelector<HTMLElement>('[data-autofocus]') ?? element.querySelector('h2');
      first?.focus();
    }
    if (!open && element.open) element.close();
  }, [open]);

  // Closed at once and told at once: the `close` event comes a task later, and a click on the
  // opener in between would find the owner still thinking the dialog open.
  const close = () => {
    ref.current?.close();
    onClose();
  };

  // Removed while open (its owner unmounted it): close first, so focus goes back where it was.
  useLayoutEffect(
    () => () => {
      if (ref.current?.open) ref.current.close();
    },
    [],
  );

  return (
    <dialog
      ref={ref}
      className={danger ? `${styles.dialog} ${styles.danger}` : styles.dialog}
      aria-labelledby={titleId}
      {...(role === 'alertdialog' ? { role } : {})}
      {...(describedBy ? { 'aria-describedby': describedBy } : {})}
      onCancel={(event) => {
        event.preventDefault();
        close();
      }}
      // Any other way it closed; ignored when it has been opened again since.
      onClose={() => {
        if (!ref.current?.open) onClose();
      }}
    >
      {open && (
        <>
          <button type="button" className={styles.close} aria-label={t('dialog.close')} onClick={close}>
            <span aria-hidden="true">×</span>
          </button>
          <h2 id={titleId} className={styles.title} tabIndex={-1}>
            {title}
          </h2>
          {children}
        </>
      )}
    </dialog>
  );
}
