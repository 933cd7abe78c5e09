import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminApi } from '../api';
import { QueryState, Table, When } from '../components';

interface AuditEntry {
  id: string;
  at: string;
  operator: { id: string; email: string };
  action: string;
  targetType: string;
  targetId: string | null;
  before: unknown;
  after: unknown;
}

const PAGE_SIZE = 50;

function Change({ label, value }: { label: string; value: unknown }) {
  if (value === null || value === undefined) return null;
  return (
    <details>
      <summary>{label}</summary>
      <pre className="admin-json">{JSON.stringify(value, null, 2)}</pre>
    </details>
  );
}

/** Admin: every operator action, newest first, a page at a time. */
export default function AuditPage() {
  const { t } = useTranslation('admin');
  // The pages seen so far: `before` of each (undefined for the newest).
  const [pages, setPages] = useState<(string | undefined)[]>([undefined]);
  const before = pages.at(-1);
  const audit = useQuery({
    queryKey: ['admin', 'audit', before],
    queryFn: () =>
      adminApi<{ entries: AuditEntry[]; nextBefore: string | null }>('/audit', {
        query: { limit: PAGE_SIZE, before },
      }),
    placeholderData: keepPreviousData,
  });

  return (
    <>
      <h1 className="admin-title">{t('audit.title')}</h1>
      <QueryState pending={audit.isPending} error={audit.error} />
      {audit.data && (
        <>
          <Table caption={t('audit.title')}>
            <thead>
              <tr>
                <th scope="col">{t('fields.date')}</th>
                <th scope="col">{t('audit.operator')}</th>
                <th scope="col">{t('audit.action')}</th>
                <th scope="col">{t('audit.target')}</th>
                <th scope="col">{t('audit.change')}</th>
              </tr>
            </thead>
            <tbody>
              {audit.data.entries.map((entry) => (
                <tr key={entry.id}>
                  <td>
                    <When at={entry.at} />
                  </td>
                  <td>{entry.operator.email}</td>
                  <td>
                    <code>{entry.action}</code>
                  </td>
                  <td>
                    {entry.targetType}
                    {entry.targetId && <div className="admin-muted">{entry.targetId}</div>}
                  </td>
                  <td>
                    <Change label={t('audit.before')} value={entry.before} />
                    <Change label={t('audit.after')} value={entry.after} />
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
          <nav className="admin-actions" aria-label={t('audit.pages')}>
            <button
              type="button"
              className="button button--ghost admin-small"
              disabled={pages.length === 1}
              onClick={() => setPages([undefined])}
            >
              {t('audit.newest')}
            </button>
            <button
              type="button"
              className="button button--ghost admin-small"
              disabled={pages.length === 1}
              onClick={() => setPages(pages.slice(0, -1))}
            >
              {t('audit.newer')}
            </button>
            <span className="admin-muted">{t('audit.page', { number: pages.length })}</span>
            <button
              type="button"
              className="button button--ghost admin-small"
              disabled={!audit.data.nextBefore}
              onClick={() => setPages([...pages, audit.data.nextBefore ?? undefined])}
            >
              {t('audit.older')}
            </button>
          </nav>
        </>
      )}
    </>
  );
}
