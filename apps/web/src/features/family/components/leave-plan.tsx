import type { Profile } from '@tunes/shared/profile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '@/components/dialog';
import { FormError } from '@/components/form-field';
import { currentSubscription } from '@/lib/auth';
import { toast } from '@/lib/toast';
import { useLeavePlan } from '../api/leave-plan';
import styles from './family.module.css';

/**
 * A member's view of the plan they share (product.md §14): it is the owner's to pay and
 * renew, and the member may leave it — after a confirmation — freeing their seat at once.
 */
export function LeavePlan({ profile }: { profile: Profile }) {
  const { t } = useTranslation('family');
  const [confirming, setConfirming] = useState(false);
  const leave = useLeavePlan();
  const subscription = currentSubscription(profile);
  if (subscription?.Role !== 'member') return null;

  const onLeave = () =>
    leave.mutate(subscription.SubscriptionId, {
      onSuccess: () => {
        setConfirming(false);
        toast.success(t('leave.done'));
      },
    });

  return (
    <section className={`card ${styles.block}`} aria-labelledby="leave-plan-title">
      <h2 id="leave-plan-title">{t('leave.title')}</h2>
      <p>{t('leave.text')}</p>
      <button type="button" className="button button--danger" onClick={() => setConfirming(true)}>
        {t('leave.button')}
      </button>
      <Dialog open={confirming} title={t('leave.dialog-title')} onClose={() => setConfirming(false)}>
        <p>{t('leave.dialog-text')}</p>
        {leave.isError && <FormError>{leave.error.message}</FormError>}
        <div className={styles.dialogActions}>
          <button
            type="button"
            className="button button--danger"
            disabled={leave.isPending}
            aria-busy={leave.isPending}
            onClick={onLeave}
          >
            {leave.isPending ? t('leave.leaving') : t('leave.confirm')}
          </button>
          <button type="button" className="button button--ghost" onClick={() => setConfirming(false)}>
            {t('leave.cancel')}
          </button>
        </div>
      </Dialog>
    </section>
  );
}
