import type { Profile } from '@tunes/shared/profile';
import { formatPhoneForDisplay } from '@tunes/shared/validation';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { logout } from '@/lib/auth';
import styles from './profile.module.css';

/** Profile details of product.md §2: name, e-mail address, mobile number; edit link and logout. */
export function ProfileDetails({ profile }: { profile: Profile }) {
  const { t } = useTranslation('accounts');
  const name = `${profile.FirstName} ${profile.LastName}`.trim() || profile.DisplayName;
  const notSet = <span className={styles.muted}>{t('profile.not-set')}</span>;
  return (
    <section className={`card ${styles.details}`} aria-labelledby="profile-details-title">
      <h2 id="profile-details-title" className={styles.heading}>
        {t('profile.details')}
      </h2>
      <dl className={styles.list}>
        <dt>{t('profile.name')}</dt>
        <dd>{name || notSet}</dd>
        <dt>{t('profile.email')}</dt>
        <dd>{profile.PrimaryEmail || notSet}</dd>
        <dt>{t('profile.mobile')}</dt>
        <dd>{profile.PhoneNumber ? formatPhoneForDisplay(profile.PhoneNumber) : notSet}</dd>
      </dl>
      <div className={styles.actions}>
        <Link href="/profile-edit" className="button button--ghost">
          {t('profile.edit')}
        </Link>
        <button type="button" className="button button--danger" onClick={logout}>
          {t('profile.logout')}
        </button>
      </div>
    </section>
  );
}
