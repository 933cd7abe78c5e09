import { useTranslation } from 'react-i18next';

interface Props {
  /** Seconds before the server sends another code (the resend countdown). */
  secondsLeft: number;
  disabled: boolean;
  onClick(): void;
}

/**
 * The main action once a code is spent (expired, or locked after 5 wrong tries): ask for a new
 * one, as soon as the resend countdown allows.
 */
export function NewCodeButton({ secondsLeft, disabled, onClick }: Props) {
  const { t } = useTranslation('accounts');
  return (
    <button
      type="button"
      className="button button--primary button--block"
      disabled={disabled || secondsLeft > 0}
      onClick={onClick}
    >
      {secondsLeft > 0 ? t('mobile.resend-in', { seconds: secondsLeft }) : t('mobile.new-code')}
    </button>
  );
}
