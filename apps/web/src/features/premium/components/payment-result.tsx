import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { PageTitle } from '@/components/page';
import styles from './premium.module.css';

/** /success (product.md §2): 'subscription active' with a link to the profile. */
export function PaymentSuccess() {
  const { t } = useTranslation('premium');
  const queryClient = useQueryClient();
  // The new subscription hides the Premium link and shows on the profile.
  useEffect(() => {
    void queryClient.invalidateQueries({ queryKey: ['profile'] });
  }, [queryClient]);
  return (
    <div className={`page page--narrow ${styles.result}`}>
      <PageTitle>{t('success.title')}</PageTitle>
      <p>{t('success.text')}</p>
      <Link href="/profile" className="button button--primary">
        {t('success.profile')}
      </Link>
    </div>
  );
}

/** /failed (product.md §2): the payment cancelled notice. */
export function PaymentFailed() {
  const { t } = useTranslation('premium');
  return (
    <div className={`page page--narrow ${styles.result}`}>
      <PageTitle>{t('failed.title')}</PageTitle>
      <p role="alert">{t('failed.text')}</p>
      <Link href="/premium" className="button button--ghost">
        {t('failed.retry')}
      </Link>
    </div>
  );
}
