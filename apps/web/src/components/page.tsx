import { type ReactNode, useEffect } from 'react';
import { useTranslation } from 'react-i18next';

/** A page's main heading; also names the browser tab after it. */
export function PageTitle({ children, className }: { children: string; className?: string }) {
  const { t } = useTranslation('common');
  useEffect(() => {
    document.title = `${children} · ${t('brand')}`;
  }, [children, t]);
  return <h1 className={className ?? 'page-title'}>{children}</h1>;
}

export function Page({ children, narrow = false }: { children: ReactNode; narrow?: boolean }) {
  return <div className={narrow ? 'page page--narrow' : 'page'}>{children}</div>;
}
