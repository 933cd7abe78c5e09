import { newPasswordSchema } from '@tunes/shared/validation';
import type { FieldErrors, UseFormRegisterReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { TextField } from '@/components/form-field';

type PasswordPair = { password: string; confirm: string };

/** product.md §5 for a new password typed twice: both required, at least 6 characters, matching. */
export function checkNewPassword({ password, confirm }: PasswordPair, ctx: z.RefinementCtx) {
  if (!password || !confirm) {
    ctx.addIssue({
      code: 'custom',
      path: [password ? 'confirm' : 'password'],
      message: 'validation.password-and-confirm-required',
    });
    return;
  }
  const strength = newPasswordSchema.safeParse(password);
  if (!strength.success) {
    ctx.addIssue({ code: 'custom', path: ['password'], message: strength.error.issues[0]?.message ?? '' });
  } else if (password !== confirm) {
    ctx.addIssue({ code: 'custom', path: ['confirm'], message: 'validation.passwords-do-not-match' });
  }
}

interface Props {
  /** The fields' ids are `<id>-password` and `<id>-confirm`. */
  id: string;
  passwordLabel: string;
  register(name: keyof PasswordPair): UseFormRegisterReturn;
  errors: FieldErrors<PasswordPair>;
}

/** The new password and its confirmation, checked together by `checkNewPassword`. */
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
