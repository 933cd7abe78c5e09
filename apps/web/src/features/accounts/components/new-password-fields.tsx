import type { FieldErrors, UseFormRegisterReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { TextField } from '@/components/form-field';

type PasswordPair = { password: string; confirm: string };

interface Props {
  /** The fields' ids are `<id>-password` and `<id>-confirm`. */
  id: string;
  passwordLabel: string;
  register(name: keyof PasswordPair): UseFormRegisterReturn;
  errors: FieldErrors<PasswordPair>;
}

/** The new password and its confirmation, checked together by the form's schema (form-schemas.ts). */
export function NewPasswordFields({ id, passwordLabel, register, errors }: Props) {
  const { t } = useTranslation('accounts');
  return (
    <>
      <TextField
        id={`${id}-password`}
        label={passwordLabel}
        error={errors.password?.message}
        type="password"
        autoComplete="new-password"
        {...register('password')}
      />
      <TextField
        id={`${id}-confirm`}
        label={t('email.confirm-password')}
        error={errors.confirm?.message}
        type="password"
        autoComplete="new-password"
        {...register('confirm')}
      />
    </>
  );
}
