import { OTP_LENGTH } from '@tunes/shared/constants';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import styles from './login-modal.module.css';

interface Props {
  digits: string[];
  onChange(digits: string[]): void;
  invalid?: boolean;
}

/** Four single-digit boxes (product.md §2): typing moves on, backspace on an empty box moves back. */
export function CodeBoxes({ digits, onChange, invalid }: Props) {
  const { t } = useTranslation('accounts');
  const boxes = useRef<(HTMLInputElement | null)[]>([]);

  const setDigit = (index: number, value: string) => {
    const typed = value.replace(/\D/g, '');
    const next = [...digits];
    if (typed.length > 1) {
      // A pasted code fills the boxes from here on.
      for (let i = 0; i < typed.length && index + i < OTP_LENGTH; i++) next[index + i] = typed[i] ?? '';
      onChange(next);
      boxes.current[Math.min(index + typed.length, OTP_LENGTH - 1)]?.focus();
      return;
    }
    next[index] = typed;
    onChange(next);
    if (typed && index < OTP_LENGTH - 1) boxes.current[index + 1]?.focus();
  };

  return (
    <div className={styles.codeBoxes}>
      {Array.from({ length: OTP_LENGTH }, (_, index) => (
        <input
          // biome-ignore lint/suspicious/noArrayIndexKey: the boxes are fixed positions.
          key={index}
          ref={(element) => {
            boxes.current[index] = element;
          }}
          className={`input ${styles.codeBox}`}
          inputMode="numeric"
          autoComplete={index === 0 ? 'one-time-code' : 'off'}
          aria-label={t('email.digit', { n: index + 1 })}
          aria-invalid={invalid}
          value={digits[index] ?? ''}
          onChange={(event) => setDigit(index, event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Backspace' && !digits[index] && index > 0) {
              event.preventDefault();
              boxes.current[index - 1]?.focus();
            }
            // Typing the digit a box already holds changes nothing, so no change event: move on here.
            if (/^\d$/.test(event.key) && digits[index] === event.key && index < OTP_LENGTH - 1) {
              event.preventDefault();
              boxes.current[index + 1]?.focus();
            }
          }}
          onFocus={(event) => event.target.select()}
        />
      ))}
    </div>
  );
}
