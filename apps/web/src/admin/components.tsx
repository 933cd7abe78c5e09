import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { FormError } from '@/components/form-field';
import { userMessage } from '@/lib/api-error';
import { formatDateTime } from '@/lib/format';
import { FormInvalid } from './forms';

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
              // A form in the dialog found wrong shows why on its fields.
              if (!(error instanceof FormInvalid)) toast.error(userMessage(error));
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

/**
 * A table that scrolls sideways inside itself on a narrow screen, named for screen readers; the
 * scrolling box takes the keyboard's focus so it scrolls by the arrow keys too (WCAG 2.1.1).
 */
export function Table({ caption, children }: { caption: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard (axe scrollable-region-focusable).
    <section className="admin-table-wrap" tabIndex={0} aria-label={caption}>
      <table className="admin-table">
        <caption className="visually-hidden">{caption}</caption>
        {children}
      </table>
    </section>
  );
}

/** A query's loading and failure states. */
export function QueryState({ pending, error }: { pending: boolean; error: unknown }) {
  const { t } = useTranslation('admin');
  if (error) {
    return <FormError>{userMessage(error)}</FormError>;
  }
  if (pending) return <p role="status">{t('loading')}</p>;
  return null;
}

/** A choice of a few options (a range, a language) as buttons, the chosen one pressed. */
export function Segmented<Value extends string | number>({
  label,
  options,
  value,
  onChange,
}: {
  label: string;
  options: readonly { value: Value; label: string }[];
  value: Value;
  onChange(next: NoInfer<Value>): void;
}) {
  return (
    <fieldset className="admin-segmented">
      <legend className="visually-hidden">{label}</legend>
      {options.map((option) => (
        <button
          key={option.value}
          type="button"
          className="button button--ghost admin-small"
          aria-pressed={option.value === value}
          onClick={() => onChange(option.value)}
        >
          {option.label}
        </button>
      ))}
    </fieldset>
  );
}

/** Pages of a newest-first list read by keyset (`before` of each page; undefined for the newest). */
export function useKeysetPages() {
  const [seen, setSeen] = useState<(string | undefined)[]>([undefined]);
  return {
    before: seen.at(-1),
    number: seen.length,
    newest: () => setSeen([undefined]),
    newer: () => setSeen(seen.slice(0, -1)),
    older: (before: string) => setSeen([...seen, before]),
  };
}

/** Newest, newer and older pages of a keyset list; `next` is the answer's `nextBefore`. */
export function Pager({ pages, next }: { pages: ReturnType<typeof useKeysetPages>; next: string | null }) {
  const { t } = useTranslation('admin');
  return (
    <nav className="admin-actions" aria-label={t('pages.label')}>
      <button
        type="button"
        className="button button--ghost admin-small"
        disabled={pages.number === 1}
        onClick={pages.newest}
      >
        {t('pages.newest')}
      </button>
      <button
        type="button"
        className="button button--ghost admin-small"
        disabled={pages.number === 1}
        onClick={pages.newer}
      >
        {t('pages.newer')}
      </button>
      <span className="admin-muted">{t('pages.page', { number: pages.number })}</span>
      <button
        type="button"
        className="button button--ghost admin-small"
        disabled={!next}
        onClick={() => next && pages.older(next)}
      >
        {t('pages.older')}
      </button>
    </nav>
  );
}
