import type { UseFormRegisterReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { TextField } from '@/components/form-field';

/** The six-digit code of the authenticator app (sign-in and set-up). */
export function TotpField({
  id,
  error,
  registration,
}: {
  id: string;
  error: string | undefined;
  registration: UseFormRegisterReturn<'code'>;
}) {
  const { t } = useTranslation('admin');
  return (
    <TextField
      id={id}
      label={t('fields.code')}
      hint={t('fields.code-hint')}
      error={error}
      className="admin-code"
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={6}
      {...registration}
    />
  );
}
