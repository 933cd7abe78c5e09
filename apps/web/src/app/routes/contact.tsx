import { useTranslation } from 'react-i18next';
import { Page, PageTitle } from '@/components/page';
import { ContactDetails } from '@/features/content/components/contact-details';
import { ContactLayout } from '@/features/content/components/contact-page';
import { FeedbackForm } from '@/features/content/components/feedback-form';

export default function ContactPage() {
  const { t } = useTranslation('common');
  return (
    <Page>
      <PageTitle>{t('pages.contact')}</PageTitle>
      <ContactLayout>
        <ContactDetails />
        <FeedbackForm />
      </ContactLayout>
    </Page>
  );
}
