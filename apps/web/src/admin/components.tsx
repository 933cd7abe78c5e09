import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { formatDateTime } from '@/lib/format';
import { errorText } from './api';

interface ConfirmedActionProps {
  /** The button's text; also the dialog's confirm button. */
  label: string;
  title: string;
  /** The question, and any input the action needs. */
  children: ReactNode;
  danger?: boolean;
  disabled?: boolean;
  /** Runs once confirmed; its text is toasted as the result. */
  run(): Promise<string>;
}

/** A button whose action runs only after a confirm dialog, with its result as a toast. */
export function ConfirmedAction({ label, title, children, danger, disabled, run }: ConfirmedActionProps) {
  const { t } = useTranslation('admin');
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  return (
    <>
      <button
        type="button"
        className={`button ${danger ? 'button--danger' : 'button--ghost'} admin-small`}
        onClick={() => setAsking(true)}
        disabled={disabled}
      >
        {label}
      </button>
      {asking && (
        <ConfirmDialog
          title={title}
          confirmLabel={label}
          cancelLabel={t('cancel')}
          danger={danger}
          busy={busy}
          onCancel={() => setAsking(false)}
          onConfirm={async () => {
            setBusy(true);
            try {
              toast.success(await run());
              setAsking(false);
            } catch (error) {
              toast.error(errorText(error, t));
            } finally {
              setBusy(false);
            }
          }}
        >
          {children}
        </ConfirmDialog>
      )}
    </>
  );
}

/** A time in the console's language, or a dash. */
export function When({ at }: { at: string | null | undefined }) {
  const { i18n } = useTranslation('admin');
  if (!at) return <>—</>;
  return <time dateTime={at}>{formatDateTime(at, i18n.language)}</time>;
}

/** A table that scrolls sideways inside itself on a narrow screen, named for screen readers. */
export function Table({ caption, children }: { caption: string; children: ReactNode }) {
  return (
    <div className="admin-table-wrap">
      <table className="admin-table">
        <caption className="visually-hidden">{caption}</caption>
        {children}
      </table>
    </div>
  );
}

/** A query's loading and failure states. */
export function QueryState({ pending, error }: { pending: boolean; error: unknown }) {
  const { t } = useTranslation('admin');
  if (error) {
    return (
      <p className="form-error" role="alert">
        {errorText(error, t)}
      </p>
    );
  }
  if (pending) return <p role="status">{t('loading')}</p>;
  return null;
}
