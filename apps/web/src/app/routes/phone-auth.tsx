import { useTranslation } from 'react-i18next';
import { Page, PageTitle } from '@/components/page';
import { goToProfile } from '@/features/accounts/api/sign-in';
import { blockEnter } from '@/features/accounts/components/block-enter';
import { EmailAuth } from '@/features/accounts/components/email-auth';

/** /phoneauth (product.md §2): shows the e-mail auth component. */
export default function PhoneAuthPage() {
  const { t } = useTranslation('common');
  const { t: tAccounts } = useTranslation('accounts');
  return (
    <Page narrow>
      <PageTitle>{t('pages.phoneauth')}</PageTitle>
      <p>{tAccounts('phoneauth.intro')}</p>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: only blocks Enter in the inputs inside (product.md §2). */}
      <div className="card" onKeyDown={blockEnter}>
        <EmailAuth onSignedIn={goToProfile} />
      </div>
    </Page>
  );
}
