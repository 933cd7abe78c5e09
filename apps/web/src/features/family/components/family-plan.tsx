import type { Profile } from '@tunes/shared/profile';
import { useTranslation } from 'react-i18next';
import { currentSubscription } from '@/lib/auth';
import type { TranslationKey } from '@/lib/i18n';
import { useCreateInvitationCode } from '../api/create-invitation-code';
import { useInvitationCodes } from '../api/get-invitation-codes';
import { useSharedUsers } from '../api/get-shared-users';
import styles from './family.module.css';
import { InviteLinks } from './invite-links';
import { SharedUsers } from './shared-users';

/**
 * Owner view of a Duo/Family plan on /profile (product.md §2): shown when the first subscription is
 * the user's own and its package allows sharing.
 */
export function FamilyPlan({ profile }: { profile: Profile }) {
  const subscription = currentSubscription(profile);
  if (!subscription || subscription.OwnerId !== profile.UserId || !subscription.PackageCost.AllowShare) {
    return null;
  }
  return (
    <OwnerView
      subscriptionId={subscription.SubscriptionId}
      firstName={profile.FirstName}
      maxSharedUsers={subscription.PackageCost.MaxSharedUsers}
    />
  );
}

/** A Duo plan shares one seat, a Family plan up to three: their texts differ. */
const PLAN_TEXTS = {
  duo: { manage: 'manage-plan.duo', invite: 'invite.text.duo' },
  family: { manage: 'manage-plan.family', invite: 'invite.text.family' },
} as const satisfies Record<string, Record<string, TranslationKey<'family'>>>;

function OwnerView({
  subscriptionId,
  firstName,
  maxSharedUsers,
}: {
  subscriptionId: string;
  firstName: string;
  maxSharedUsers: number;
}) {
  const { t } = useTranslation('family');
  const codes = useInvitationCodes(subscriptionId);
  const members = useSharedUsers(subscriptionId);
  const create = useCreateInvitationCode(subscriptionId);
  const texts = maxSharedUsers === 1 ? PLAN_TEXTS.duo : PLAN_TEXTS.family;
  const remaining = codes.data?.Remaining ?? 0;

  return (
    <section className={`card ${styles.block}`} aria-labelledby="family-plan-title">
      <h2 id="family-plan-title">{firstName ? t('welcome', { name: firstName }) : t('welcome-no-name')}</h2>
      <p>{t(texts.manage)}</p>

      <div className={styles.part}>
        <h3>{t('invite.title')}</h3>
        <p>{t(texts.invite, { max: maxSharedUsers })}</p>
        {remaining > 0 && (
          <button
            type="button"
            className="button button--primary"
            onClick={() => create.mutate()}
            disabled={create.isPending}
            aria-busy={create.isPending}
          >
            {t('invite.button')}
          </button>
        )}
        <InviteLinks subscriptionId={subscriptionId} codes={codes.data?.Codes ?? []} />
        <p className={styles.finePrint}>{t('invite.fine-print')}</p>
      </div>

      <div className={styles.part}>
        <h3>{t('manage.title')}</h3>
        <SharedUsers subscriptionId={subscriptionId} users={members.data ?? []} />
        {codes.data && <p className={styles.remaining}>{t('manage.remaining', { count: remaining })}</p>}
      </div>
    </section>
  );
}
