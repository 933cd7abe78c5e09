import { PROFILE_FIELD_MAX_LENGTH } from '@tunes/shared/constants';
import type { Profile } from '@tunes/shared/profile';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import type { z } from 'zod';
import { FormError, TextField } from '@/components/form-field';
import { userMessage } from '@/lib/api-error';
import type { TranslationKey } from '@/lib/i18n';
import { lazyZodResolver } from '@/lib/lazy-resolver';
import { toast } from '@/lib/toast';
import { useUpdateDetails } from '../api/update-details';
import type { profileEditSchema } from '../form-schemas';
import { ConfirmEmailChange } from './confirm-email-change';
import styles from './profile.module.css';

const resolver = lazyZodResolver(() =>
  import('../form-schemas').then((schemas) => schemas.profileEditSchema),
);
type Values = z.input<typeof profileEditSchema>;
const FIELDS = [
  ['FirstName', 'edit.first-name', 'given-name', 'text'],
  ['LastName', 'edit.last-name', 'family-name', 'text'],
  ['Email', 'edit.email', 'email', 'email'],
] as const satisfies readonly (readonly [keyof Values, TranslationKey<'accounts'>, string, string])[];

/** /profile-edit (product.md §2): FirstName, LastName, Email, at most 50 characters; success → /profile. */
export function ProfileEditForm({ profile }: { profile: Profile }) {
  const { t } = useTranslation('accounts');
  const [, navigate] = useLocation();
  const [failure, setFailure] = useState('');
  const [pendingEmail, setPendingEmail] = useState<string | null>(null);
  const update = useUpdateDetails();
  const form = useForm<Values, unknown, z.output<typeof profileEditSchema>>({
    resolver,
    defaultValues: {
      FirstName: profile.FirstName,
      LastName: profile.LastName,
      Email: profile.PrimaryEmail ?? '',
    },
  });
  const { errors, isSubmitting } = form.formState;

  const submit = form.handleSubmit((values) => {
    setFailure('');
    // The whole edit state is sent (product.md §3); the server reads the editable fields.
    return update
      .mutateAsync({ ...profile, ...values })
      .then((saved) => {
        toast.success(t('edit.saved'));
        // A new address waits for the code sent to it before it counts.
        if (saved.PendingEmail) setPendingEmail(saved.PendingEmail);
        else navigate('/profile');
      })
      .catch((error: unknown) => setFailure(userMessage(error)));
  });

  if (pendingEmail) {
    return (
      <ConfirmEmailChange
        profile={update.data ?? profile}
        pendingEmail={pendingEmail}
        onConfirmed={() => navigate('/profile')}
      />
    );
  }

  return (
    <form noValidate className={styles.form} onSubmit={submit} onFocus={resolver.warm}>
      {FIELDS.map(([name, label, autoComplete, type]) => (
        <TextField
          key={name}
          id={`edit-${name}`}
          label={t(label)}
          error={errors[name]?.message}
          type={type}
          autoComplete={autoComplete}
          maxLength={PROFILE_FIELD_MAX_LENGTH}
          {...form.register(name)}
        />
      ))}
      {failure && <FormError>{failure}</FormError>}
      <div className={styles.actions}>
        <button type="submit" className="button button--primary" disabled={isSubmitting}>
          {t('edit.save')}
        </button>
        <Link href="/profile" className="button button--ghost">
          {t('edit.cancel')}
        </Link>
      </div>
    </form>
  );
}
