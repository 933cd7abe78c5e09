import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useSearch } from 'wouter';
import { adminApi } from '../../api';
import { Pager, QueryState, Table, useKeysetPages, When } from '../../components';
import { FeedbackReader } from './reader';
import type { FeedbackPage } from './types';

const PAGE_SIZE = 10;

/** Support: feedback sent through the contact page, newest first, a page at a time; one to read. */
export default function FeedbackPageView() {
  const { t } = useTranslation('admin');
  const open = new URLSearchParams(useSearch()).get('id');
  const pages = useKeysetPages();
  const list = useQuery({
    queryKey: ['admin', 'feedback', pages.before],
    queryFn: () => adminApi<FeedbackPage>('/feedback', { query: { limit: PAGE_SIZE, before: pages.before } }),
    placeholderData: keepPreviousData,
    enabled: !open,
  });

  if (open) return <FeedbackReader id={open} />;
  return (
    <>
      <h1 className="admin-title">{t('feedback.title')}</h1>
      <p className="admin-muted">{t('feedback.intro')}</p>
      <QueryState pending={list.isPending} error={list.error} />
      {list.data && list.data.entries.length === 0 && pages.number === 1 && (
        <p role="status">{t('feedback.none')}</p>
      )}
      {list.data && list.data.entries.length > 0 && (
        <>
          <Table caption={t('feedback.title')}>
            <thead>
              <tr>
                <th scope="col">{t('feedback.received')}</th>
                <th scope="col">{t('feedback.from')}</th>
                <th scope="col">{t('feedback.message')}</th>
              </tr>
            </thead>
            <tbody>
              {list.data.entries.map((entry) => (
                <tr key={entry.id}>
                  <td>
                    <When at={entry.receivedAt} />
                  </td>
                  <td>
                    {entry.name}
                    <div className="admin-muted">{entry.email}</div>
                  </td>
                  <td className="admin-message">
                    <Link
                      href={`/feedback?id=${encodeURIComponent(entry.id)}`}
                      aria-label={t('feedback.read-named', { name: entry.name })}
                    >
                      {entry.preview}
                    </Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
          <Pager pages={pages} next={list.data.nextBefore} />
        </>
      )}
    </>
  );
}
