import { OTP_LENGTH } from '@tunes/shared/constants';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormError } from '@/components/form-field';
import { userMessage } from '@/lib/api-error';
import { toast } from '@/lib/toast';
import { CodeBoxes } from './code-boxes';
import styles from './self-service.module.css';

interface Props {
  /** What was sent where ("We sent a 4-digit code to …"). */
  sentText: string;
  onConfirm(code: string): Promise<unknown>;
  onResend(): Promise<unknown>;
  onWithdraw(): Promise<unknown>;
}

const emptyCode = () => Array<string>(OTP_LENGTH).fill('');

/**
 * The second step of an e-mail or phone change (security.md): the code sent to the new address
 * or number, with a new code on request, or the change withdrawn.
 */
export function CodeStep({ sentText, onConfirm, onResend, onWithdraw }: Props) {
  const { t } = useTranslation('accounts');
  const [digits, setDigits] = useState(emptyCode);
  const [failure, setFailure] = useState('');
  const [busy, setBusy] = useState(false);
  const code = digits.join('');
  const form = useRef<HTMLFormElement>(null);

  // The step replaces the one before inside an open dialog: the first box takes focus.
  useEffect(() => {
    form.current?.querySelector('input')?.focus();
  }, []);

  const run = async (action: () => Promise<unknown>) => {
    setFailure('');
    setBusy(true);
    try {
      await action();
    } catch (error) {
      setFailure(userMessage(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      ref={form}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (code.length === OTP_LENGTH) void run(() => onConfirm(code));
      }}
    >
      <p>{sentText}</p>
      <fieldset className={styles.codeFieldset}>
        <legend className={styles.legend}>{t('mobile.code')}</legend>
        <CodeBoxes digits={digits} onChange={setDigits} invalid={Boolean(failure)} />
      </fieldset>
      {failure && <FormError>{failure}</FormError>}
      <div className={styles.actions}>
        <button
          type="submit"
          className="button button--primary"
          disabled={code.length !== OTP_LENGTH || busy}
        >
          {t('change.confirm')}
        </button>
        <button
          type="button"
          className="button button--ghost"
          disabled={busy}
          onClick={() =>
            void run(async () => {
              await onResend();
              setDigits(emptyCode());
              toast.success(t('change.resent'));
            })
          }
        >
          {t('change.resend')}
        </button>
        <button type="button" className="link-button" disabled={busy} onClick={() => void run(onWithdraw)}>
          {t('change.withdraw')}
        </button>
      </div>
    </form>
  );
}
