import { useTranslation } from 'react-i18next';
import { Page, PageTitle } from '@/components/page';
import { TermsOfService } from '@/features/content/components/terms-of-service';

export default function TermsPage() {
  const { t } = useTranslation('common');
  return (
    <Page narrow>
      <PageTitle>{t('pages.terms')}</PageTitle>
      <TermsOfService />
    </Page>
  );
}
