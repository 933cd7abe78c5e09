import { INVITATION_RECIPIENT_MAX_LENGTH } from '@tunes/shared/family-codes';
import { useState } from 'react';
import { useController, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Dialog } from '@/components/dialog';
import { FormError, TextField } from '@/components/form-field';
import { userMessage } from '@/lib/api-error';
import { lazyZodResolver } from '@/lib/lazy-resolver';
import { toast } from '@/lib/toast';
import { useSendInvitation } from '../api/send-invitation';
import styles from './family.module.css';

type Values = { To: string };

// The schema (and libphonenumber-js with it) loads when the form is first used, not with /profile.
const resolver = lazyZodResolver<Values>(() =>
  import('@tunes/shared/invitation-send').then((module) => module.sendInvitationSchema),
);

interface Props {
  subscriptionId: string;
  code: string;
  /** The link's number in the owner's list, as the dialog's title names it. */
  number: number;
  onClose(): void;
}

/**
 * Sends one unused invitation link to a phone number (SMS) or an e-mail address (issue 37); the
 * message goes out in the owner's language and says until when the link works.
 */
export function SendInvitationDialog({ subscriptionId, code, number, onClose }: Props) {
  const { t } = useTranslation('family');
  const send = useSendInvitation(subscriptionId);
  const [failure, setFailure] = useState('');
  const { control, handleSubmit } = useForm<Values>({ resolver, defaultValues: { To: '' } });
  const { field, fieldState } = useController({ control, name: 'To' });

  const onSubmit = handleSubmit(async ({ To }) => {
    setFailure('');
    try {
      const sent = await send.mutateAsync({ code, to: To });
      toast.success(t(sent.Channel === 'sms' ? 'invite.sent-sms' : 'invite.sent-email', { to: To.trim() }));
      onClose();
    } catch (error) {
      setFailure(userMessage(error));
    }
  });

  return (
    <Dialog open title={t('invite.send-title', { number })} onClose={() => !send.isPending && onClose()}>
      <form noValidate onSubmit={onSubmit} onFocus={resolver.warm}>
        <p>{t('invite.send-text')}</p>
        <TextField
          id={`invite-send-${number}`}
          label={t('invite.send-to')}
          hint={t('invite.send-to-hint')}
          error={fieldState.error?.message}
          autoComplete="off"
          inputMode="email"
          spellCheck={false}
          maxLength={INVITATION_RECIPIENT_MAX_LENGTH}
          data-autofocus
          name={field.name}
          ref={field.ref}
          value={field.value}
          onBlur={field.onBlur}
          onChange={(event) => field.onChange(event.target.value)}
        />
        {failure && <FormError>{failure}</FormError>}
        <div className={styles.linkActions}>
          <button type="button" className="button button--ghost" onClick={onClose} disabled={send.isPending}>
            {t('invite.send-cancel')}
          </button>
          <button
            type="submit"
            className="button button--primary"
            disabled={send.isPending}
            aria-busy={send.isPending}
          >
            {t('invite.send-submit')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
