import { REGISTRATION_COUNTRIES } from '@tunes/shared/account-codes';
import {
  EMAIL_PATTERN,
  emailSchema,
  loginPasswordSchema,
  newPasswordSchema,
  otpSchema,
  profileFieldSchema,
} from '@tunes/shared/validation';
import { z } from 'zod';

/**
 * The account forms' rules (product.md §5). The forms load this module, and zod with it, when
 * they are first checked (`lazyZodResolver`), not before their page's first paint; their types
 * are read from here at no cost.
 */

type PasswordPair = { password: string; confirm: string };

/** A new password typed twice: both required, at least 6 characters, matching. */
function checkNewPassword({ password, confirm }: PasswordPair, ctx: z.RefinementCtx) {
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

/** E-mail login. */
export const emailLoginSchema = z.object({ email: emailSchema, password: loginPasswordSchema });

/** One e-mail address (create account, forgot password, change of e-mail). */
export const emailAddressSchema = z.object({ email: emailSchema });

/** Registration: a country, and the password twice. */
export const finishAccountSchema = z
  .object({
    country: z.enum(REGISTRATION_COUNTRIES, { error: 'validation.country' }),
    password: z.string(),
    confirm: z.string(),
  })
  .superRefine(checkNewPassword);

/** A new password by the e-mailed link. */
export const resetPasswordSchema = z
  .object({ password: z.string(), confirm: z.string() })
  .superRefine(checkNewPassword);

/** The current password, and the new one twice (product.md §14). */
export const changePasswordSchema = z
  .object({ current: loginPasswordSchema, password: z.string(), confirm: z.string() })
  .superRefine(checkNewPassword);

/** A first password on a phone account (issue 37): the code sent to it, and the password twice. */
export const setPasswordSchema = z
  .object({ code: otpSchema, password: z.string(), confirm: z.string() })
  .superRefine(checkNewPassword);

/** /profile-edit: names and e-mail, each at most 50 characters; the e-mail may be left empty. */
export const profileEditSchema = z.object({
  FirstName: profileFieldSchema,
  LastName: profileFieldSchema,
  Email: profileFieldSchema.refine(
    (value) => value === '' || EMAIL_PATTERN.test(value),
    'validation.enter-valid-email',
  ),
});
