import { type ComponentType, Suspense, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import styles from './login-modal.module.css';

/** What the list of countries behind the button is given. */
export interface CountryListProps {
  value: number;
  /** The list's id, which the button controls. */
  listId: string;
  onChoose(dialCode: number): void;
  /** Escape: closes the list only (not a dialog it sits in) and returns focus to the button. */
  onClose(): void;
}

interface Props {
  value: number;
  onChange(dialCode: number): void;
  /** The searchable list, shown under the button while open; it may be lazy (it suspends here). */
  List: ComponentType<CountryListProps>;
  /** The listener is about to use the button (pointed at or focused): a lazy list starts loading. */
  onIntent?(): void;
}

/**
 * The dial-code dropdown's button and popover (product.md §2). The button is one element from the
 * first paint on, whether or not the list's code has arrived: a click is never lost to a button
 * swapped out between its press and its release, and opens at once; the list shows when it is in.
 */
export function CountryCodeField({ value, onChange, List, onIntent }: Props) {
  const { t } = useTranslation('accounts');
  const { t: tCommon } = useTranslation('common');
  const [open, setOpen] = useState(false);
  const listId = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const close = () => {
    setOpen(false);
    buttonRef.current?.focus();
  };

  return (
    <div className={styles.countryCode}>
      <button
        ref={buttonRef}
        type="button"
        className={`select ${styles.countryButton}`}
        aria-label={`${t('mobile.country-code')}: +${value}`}
        aria-expanded={open}
        aria-controls={listId}
        onPointerEnter={onIntent}
        onFocus={onIntent}
        onClick={() => setOpen((isOpen) => !isOpen)}
      >
        +{value}
      </button>
      {open && (
        <div className={styles.countryPopover}>
          <Suspense fallback={<p role="status">{tCommon('loading')}</p>}>
            <List
              value={value}
              listId={listId}
              onChoose={(dialCode) => {
                onChange(dialCode);
                close();
              }}
              onClose={close}
            />
          </Suspense>
        </div>
      )}
    </div>
  );
}
