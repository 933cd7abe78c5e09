import { PROFILE_FIELD_MAX_LENGTH } from '@tunes/shared/constants';
import type { Profile } from '@tunes/shared/profile';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { Dialog } from '@/components/dialog';
import { FormError, TextField } from '@/components/form-field';
import { userMessage } from '@/lib/api-error';
import { lazyZodResolver } from '@/lib/lazy-resolver';
import { toast } from '@/lib/toast';
import { useConfirmEmailChange, useUpdateDetails } from '../api/update-details';
import type { emailAddressSchema } from '../form-schemas';
import { CodeStep } from './code-step';
import styles from './self-service.module.css';

const resolver = lazyZodResolver(() =>
  import('../form-schemas').then((schemas) => schemas.emailAddressSchema),
);
type Values = z.input<typeof emailAddressSchema>;

interface Props {
  profile: Profile;
  open: boolean;
  onClose(): void;
}

/**
 * Changing the e-mail address from /profile (security.md): the new address gets a code and
 * counts only once the code is entered; a change already waiting opens at its code.
 */
export function ChangeEmailDialog({ profile, open, onClose }: Props) {
  const { t } = useTranslation('accounts');
  return (
    <Dialog open={open} title={t('change.email-title')} onClose={onClose}>
      <ChangeEmail profile={profile} onDone={onClose} />
    </Dialog>
  );
}

function ChangeEmail({ profile, onDone }: { profile: Profile; onDone(): void }) {
  const { t } = useTranslation('accounts');
  const update = useUpdateDetails();
  const confirm = useConfirmEmailChange();
  const [failure, setFailure] = useState('');
  const pending = profile.PendingEmail;
  const form = useForm<Values, unknown, z.output<typeof emailAddressSchema>>({
    resolver,
    defaultValues: { email: '' },
  });

  if (pending) {
    return (
      <CodeStep
        sentText={t('change.code-sent-email', { target: pending })}
        onConfirm={async (code) => {
          await confirm.mutateAsync(code);
          toast.success(t('change.email-changed'));
          onDone();
        }}
        onResend={() => update.mutateAsync({ ...profile, Email: pending })}
        // Saving the current address again withdraws the change.
        onWithdraw={async () => {
          await update.mutateAsync({ ...profile, Email: profile.PrimaryEmail ?? '' });
          onDone();
        }}
      />
    );
  }

  const submit = form.handleSubmit(async ({ email }) => {
    setFailure('');
    if (email === profile.PrimaryEmail) {
      form.setError('email', { message: t('change.same-email') });
      return;
    }
    try {
      await update.mutateAsync({ ...profile, Email: email });
    } catch (error) {
      setFailure(userMessage(error));
    }
  });
  const { errors, isSubmitting } = form.formState;

  return (
    <form noValidate onSubmit={submit} onFocus={resolver.warm}>
      <p className={styles.intro}>{t('change.email-intro')}</p>
      <TextField
        id="change-email"
        label={t('change.new-email')}
        error={errors.email?.message}
        data-autofocus
        type="email"
        autoComplete="email"
        maxLength={PROFILE_FIELD_MAX_LENGTH}
        {...form.register('email')}
      />
      {failure && <FormError>{failure}</FormError>}
      <div className={styles.actions}>
        <button type="submit" className="button button--primary" disabled={isSubmitting}>
          {t('change.send-code')}
        </button>
      </div>
    </form>
  );
}
