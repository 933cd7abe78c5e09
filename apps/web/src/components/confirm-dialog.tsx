import { type ReactNode, useEffect, useId, useRef } from 'react';
import styles from './confirm-dialog.module.css';

interface ConfirmDialogProps {
  title: string;
  /** What happens if the person confirms, in plain words. */
  children: ReactNode;
  confirmLabel: string;
  cancelLabel: string;
  /** The confirmed action is under way: both buttons wait. */
  busy?: boolean;
  /** The action takes something away (remove, delete): the confirm button says so. */
  danger?: boolean;
  onConfirm(): void;
  onCancel(): void;
}

/**
 * A modal question before an action that is hard to undo, in place of `window.confirm` (which
 * cannot be styled, translated by the site or tested as a page): a native `<dialog>` opened
 * modal, so focus stays inside and Escape cancels. Focus starts on the safe choice and goes back
 * to what had it when the dialog closes. Render it only while the question is asked.
 */
export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  cancelLabel,
  busy = false,
  danger = false,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const textId = useId();

  useEffect(() => {
    const element = dialog.current;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (element && !element.open) element.showModal();
    cancel.current?.focus();
    return () => {
      element?.close();
      if (opener?.isConnected) opener.focus();
    };
  }, []);

  return (
    <dialog
      ref={dialog}
      className={styles.dialog}
      role="alertdialog"
      aria-modal="true"
      aria-labelledby={titleId}
      aria-describedby={textId}
      onCancel={(event) => {
        event.preventDefault();
        if (!busy) onCancel();
      }}
    >
      <h2 id={titleId} className={styles.title}>
        {title}
      </h2>
      <div id={textId} className={styles.text}>
        {children}
      </div>
      <div className={styles.actions}>
        <button
          ref={cancel}
          type="button"
          className="button button--ghost"
          onClick={onCancel}
          disabled={busy}
        >
          {cancelLabel}
        </button>
        <button
          type="button"
          className={`button ${danger ? 'button--danger' : 'button--primary'}`}
          onClick={onConfirm}
          disabled={busy}
          aria-busy={busy}
        >
          {confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
