import { type ReactNode, useId } from 'react';
import styles from './confirm-dialog.module.css';
import { Dialog } from './dialog';

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
 * A question before an action that is hard to undo, in place of `window.confirm` (which cannot
 * be styled, translated by the site or tested as a page): the site's one `Dialog` as an alert
 * dialog, focus on the safe choice, Escape cancels (not while the action runs). Render it only
 * while the question is asked.
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
  const textId = useId();
  return (
    <Dialog
      open
      title={title}
      danger={danger}
      role="alertdialog"
      describedBy={textId}
      onClose={() => {
        if (!busy) onCancel();
      }}
    >
      <div id={textId} className={styles.text}>
        {children}
      </div>
      <div className={styles.actions}>
        <button
          type="button"
          className="button button--ghost"
          onClick={onCancel}
          disabled={busy}
          data-autofocus
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
    </Dialog>
  );
}
