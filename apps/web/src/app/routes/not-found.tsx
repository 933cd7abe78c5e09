import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { Page, PageTitle } from '@/components/page';

export default function NotFoundPage() {
  const { t } = useTranslation('common');
  return (
    <Page narrow>
      <div className="not-found">
        <p className="not-found__code" aria-hidden="true">
          404
        </p>
        <PageTitle>{t('not-found.title')}</PageTitle>
        <p>{t('not-found.message')}</p>
        <Link href="/" className="button button--primary">
          {t('not-found.go-home')}
        </Link>
      </div>
    </Page>
  );
}
