import { invitationLink } from '@tunes/shared/family-codes';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { toast } from '@/lib/toast';
import { useWithdrawInvitation } from '../api/withdraw-invitation';
import styles from './family.module.css';
import { SendInvitationDialog } from './send-invitation-dialog';

async function copyText(text: string, field: HTMLInputElement | null): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    // Clipboard API refused (insecure origin, permissions): fall back to the selection.
    field?.select();
    if (!document.execCommand('copy')) throw new Error('copy refused');
  }
}

/** Each unused link in a read-only field with Copy and Withdraw (product.md §2, §4). */
export function InviteLinks({ subscriptionId, codes }: { subscriptionId: string; codes: string[] }) {
  const { t } = useTranslation('family');
  const withdraw = useWithdrawInvitation(subscriptionId);
  // The link whose withdrawal is being asked about, with its number in the list.
  const [asking, setAsking] = useState<{ code: string; number: number } | null>(null);
  // The link being sent by SMS or e-mail, with its number in the list.
  const [sending, setSending] = useState<{ code: string; number: number } | null>(null);
  if (codes.length === 0) return null;
  const onConfirm = () => {
    if (!asking) return;
    withdraw.mutate(asking.code, {
      onSuccess: () => toast.success(t('invite.withdrawn')),
      onSettled: () => setAsking(null),
    });
  };
  return (
    <>
      <ul className={styles.links} aria-label={t('invite.links')}>
        {codes.map((code, index) => {
          const link = invitationLink(location.origin, code);
          const id = `invite-link-${index}`;
          return (
            <li key={code} className={styles.linkRow}>
              <label className="visually-hidden" htmlFor={id}>
                {t('invite.link-label', { number: index + 1 })}
              </label>
              <input
                id={id}
                className={`input ${styles.linkField}`}
                value={link}
                readOnly
                onFocus={(event) => event.currentTarget.select()}
              />
              <div className={styles.linkActions}>
                <button
                  type="button"
                  className="button button--ghost"
                  aria-label={t('invite.copy-label', { number: index + 1 })}
                  onClick={async () => {
                    try {
                      await copyText(link, document.getElementById(id) as HTMLInputElement | null);
                      toast.success(t('invite.copied'));
                    } catch (error) {
                      console.error('Copying the link failed', error);
                    }
                  }}
                >
                  {t('invite.copy')}
                </button>
                <button
                  type="button"
                  className="button button--ghost"
                  aria-label={t('invite.send-label', { number: index + 1 })}
                  aria-haspopup="dialog"
                  onClick={() => setSending({ code, number: index + 1 })}
                >
                  {t('invite.send')}
                </button>
                <button
                  type="button"
                  className="button button--ghost"
                  aria-label={t('invite.withdraw-label', { number: index + 1 })}
                  aria-haspopup="dialog"
                  disabled={withdraw.isPending && withdraw.variables === code}
                  onClick={() => setAsking({ code, number: index + 1 })}
                >
                  {t('invite.withdraw')}
                </button>
              </div>
            </li>
          );
        })}
      </ul>
      {sending && (
        <SendInvitationDialog
          subscriptionId={subscriptionId}
          code={sending.code}
          number={sending.number}
          onClose={() => setSending(null)}
        />
      )}
      {asking && (
        <ConfirmDialog
          title={t('invite.withdraw-title', { number: asking.number })}
          confirmLabel={t('invite.withdraw')}
          cancelLabel={t('invite.withdraw-keep')}
          busy={withdraw.isPending}
          danger
          onConfirm={onConfirm}
          onCancel={() => setAsking(null)}
        >
          <p>{t('invite.withdraw-text')}</p>
        </ConfirmDialog>
      )}
    </>
  );
}
