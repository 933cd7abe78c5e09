import type { SharedUser } from '@tunes/shared/family';
import { formatPhoneForDisplay } from '@tunes/shared/phone-number';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { WholeValue } from '@/components/whole-value';
import { useRemoveSharedUser } from '../api/remove-shared-user';
import styles from './family.module.css';

function ProfileIcon() {
  return (
    <svg className={styles.icon} viewBox="0 0 24 24" width="40" height="40" aria-hidden="true">
      <circle cx="12" cy="12" r="12" fill="currentColor" opacity="0.15" />
      <circle cx="12" cy="9.5" r="4" fill="currentColor" />
      <path d="M4.5 19.5c1.6-3.2 4.3-4.8 7.5-4.8s5.9 1.6 7.5 4.8" fill="currentColor" />
    </svg>
  );
}

/** The plan's members, each with icon, first name, phone and Remove (product.md §2). */
export function SharedUsers({ subscriptionId, users }: { subscriptionId: string; users: SharedUser[] }) {
  const { t } = useTranslation('family');
  const remove = useRemoveSharedUser(subscriptionId);
  // The member whose removal is being asked about, with the name the dialog shows.
  const [asking, setAsking] = useState<{ userId: string; name: string } | null>(null);
  if (users.length === 0) return <p className={styles.muted}>{t('manage.empty')}</p>;
  const onConfirm = () => {
    if (!asking) return;
    remove.mutate(asking.userId, { onSettled: () => setAsking(null) });
  };
  return (
    <>
      <ul className={styles.members} aria-label={t('manage.list')}>
        {users.map((user) => {
          // The list says "Member" beside the number; the dialog names whom it removes: the first
          // name, else the number (issue 37).
          const name =
            user.FirstName.trim() ||
            (user.Username ? formatPhoneForDisplay(user.Username) : t('manage.no-name'));
          return (
            <li key={user.UserId} className={styles.member}>
              <ProfileIcon />
              <span className={styles.memberName}>{user.FirstName.trim() || t('manage.no-name')}</span>
              <span className={styles.memberPhone}>
                <WholeValue value={formatPhoneForDisplay(user.Username)} kind="phone" />
              </span>
              <button
                type="button"
                className="button button--danger"
                aria-label={t('manage.remove-label', { name })}
                aria-haspopup="dialog"
                disabled={remove.isPending && remove.variables === user.UserId}
                onClick={() => setAsking({ userId: user.UserId, name })}
              >
                {t('manage.remove')}
              </button>
            </li>
          );
        })}
      </ul>
      {asking && (
        <ConfirmDialog
          title={t('manage.confirm-title', { name: asking.name })}
          confirmLabel={t('manage.remove')}
          cancelLabel={t('manage.confirm-keep')}
          busy={remove.isPending}
          danger
          onConfirm={onConfirm}
          onCancel={() => setAsking(null)}
        >
          <p>{t('manage.confirm', { name: asking.name })}</p>
        </ConfirmDialog>
      )}
    </>
  );
}
