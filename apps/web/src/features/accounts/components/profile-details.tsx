import { formatPhoneForDisplay } from '@tunes/shared/phone-number';
import type { Profile } from '@tunes/shared/profile';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { WholeValue } from '@/components/whole-value';
import { logout } from '@/lib/auth';
import styles from './profile.module.css';

// The change dialogs (their code step, the dial-code list) load when opened, not with the page.
const ChangeEmailDialog = lazy(() =>
  import('./change-email-dialog').then((module) => ({ default: module.ChangeEmailDialog })),
);
const ChangePhoneDialog = lazy(() =>
  import('./change-phone-dialog').then((module) => ({ default: module.ChangePhoneDialog })),
);

/**
 * Profile details of product.md §2: name, e-mail address, mobile number; edit link and logout.
 * The address and the number change here with a code to the new one (product.md §14).
 */
export function ProfileDetails({ profile }: { profile: Profile }) {
  const { t } = useTranslation('accounts');
  const [changing, setChanging] = useState<'email' | 'phone' | null>(null);
  const name = `${profile.FirstName} ${profile.LastName}`.trim() || profile.DisplayName;
  const notSet = <span className={styles.muted}>{t('profile.not-set')}</span>;
  const close = () => setChanging(null);
  return (
    <section className={`card ${styles.details}`} aria-labelledby="profile-details-title">
      <h2 id="profile-details-title" className={styles.heading}>
        {t('profile.details')}
      </h2>
      <dl className={styles.list}>
        <dt>{t('profile.name')}</dt>
        <dd>{name || notSet}</dd>
        <dt>{t('profile.email')}</dt>
        <dd>
          {profile.PrimaryEmail ? <WholeValue value={profile.PrimaryEmail} kind="email" /> : notSet}
          <Change
            pending={profile.PendingEmail}
            label={profile.PrimaryEmail ? t('change.email-button') : t('change.add-email-button')}
            pendingText={(target) => t('change.pending-email', { target })}
            onOpen={() => setChanging('email')}
          />
        </dd>
        <dt>{t('profile.mobile')}</dt>
        <dd>
          {profile.PhoneNumber ? (
            <WholeValue value={formatPhoneForDisplay(profile.PhoneNumber)} kind="phone" />
          ) : (
            notSet
          )}
          <Change
            pending={profile.PendingPhone && formatPhoneForDisplay(profile.PendingPhone)}
            label={profile.PhoneNumber ? t('change.phone-button') : t('change.add-phone-button')}
            pendingText={(target) => t('change.pending-phone', { target })}
            onOpen={() => setChanging('phone')}
          />
        </dd>
      </dl>
      <div className={styles.actions}>
        <Link href="/profile-edit" className="button button--ghost">
          {t('profile.edit')}
        </Link>
        <button type="button" className="button button--danger" onClick={logout}>
          {t('profile.logout')}
        </button>
      </div>
      <Suspense fallback={null}>
        {changing === 'email' && <ChangeEmailDialog profile={profile} open onClose={close} />}
        {changing === 'phone' && <ChangePhoneDialog profile={profile} open onClose={close} />}
      </Suspense>
    </section>
  );
}

/** The change button of a detail, or — while a change waits for its code — the way back to it. */
function Change({
  pending,
  label,
  pendingText,
  onOpen,
}: {
  pending: string | null;
  label: string;
  pendingText(target: string): string;
  onOpen(): void;
}) {
  const { t } = useTranslation('accounts');
  if (pending) {
    return (
      <span className={styles.change}>
        <span className={styles.muted}>{pendingText(pending)}</span>{' '}
        <button type="button" className="link-button" onClick={onOpen}>
          {t('change.enter-code')}
        </button>
      </span>
    );
  }
  return (
    <span className={styles.change}>
      <button type="button" className="link-button" onClick={onOpen}>
        {label}
      </button>
    </span>
  );
}
