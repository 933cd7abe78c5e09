import { useTranslation } from 'react-i18next';
import { Page, PageTitle } from '@/components/page';
import { FaqAccordion } from '@/features/content/components/faq-accordion';

export default function FaqPage() {
  const { t } = useTranslation('common');
  return (
    <Page narrow>
      <PageTitle>{t('pages.faq')}</PageTitle>
      <FaqAccordion />
    </Page>
  );
}
