import type { Profile } from '@tunes/shared/profile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AccountLanguage } from './account-language';
import { ChangePasswordDialog } from './change-password-dialog';
import { DeleteAccount } from './delete-account';
import { DownloadData } from './download-data';
import styles from './self-service.module.css';
import { SetPasswordDialog } from './set-password-dialog';
import { SignedInDevices } from './signed-in-devices';

/**
 * The account self-service of /profile (product.md §14), below the profile's own blocks: the
 * account's language, the password, the signed-in devices, download my data, and delete my
 * account. Loaded after the page's first content (routes/profile.tsx), as nothing here is needed
 * to read the profile.
 */
export function AccountSettings({ profile }: { profile: Profile }) {
  return (
    <>
      <AccountLanguage profile={profile} />
      <SignInSecurity profile={profile} />
      <SignedInDevices />
      <DownloadData />
      <DeleteAccount profile={profile} />
    </>
  );
}

/** The password: changed with the current one, or set for the first time on a phone account. */
function SignInSecurity({ profile }: { profile: Profile }) {
  const { t } = useTranslation('accounts');
  const hasPassword = profile.HasPassword;
  const [changing, setChanging] = useState(false);
  const [setting, setSetting] = useState(false);
  return (
    <section className={`card ${styles.card}`} aria-labelledby="security-title">
      <h2 id="security-title" className={styles.heading}>
        {t('security.title')}
      </h2>
      <div className={styles.row}>
        <div>
          <h3 className={styles.legend}>{t('security.password')}</h3>
          <p className={styles.intro}>
            {!hasPassword
              ? t('security.password-none')
              : profile.PrimaryEmail
                ? t('security.password-set')
                : t('security.password-set-phone')}
          </p>
        </div>
        {hasPassword ? (
          <button type="button" className="button button--ghost" onClick={() => setChanging(true)}>
            {t('password.button')}
          </button>
        ) : (
          <button type="button" className="button button--ghost" onClick={() => setSetting(true)}>
            {t('set-password.button')}
          </button>
        )}
      </div>
      <ChangePasswordDialog open={changing} onClose={() => setChanging(false)} />
      {!hasPassword && (
        <SetPasswordDialog profile={profile} open={setting} onClose={() => setSetting(false)} />
      )}
    </section>
  );
}
