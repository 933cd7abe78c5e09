import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearch } from 'wouter';
import { navigate } from 'wouter/use-browser-location';
import { adminApi } from '../api';
import { QueryState, Table, When } from '../components';
import type { UserSummary } from './support-types';

export const SEARCH_MAX = 254;

/** Support: find a listener by phone, e-mail or id. */
export default function SupportSearchPage() {
  const { t } = useTranslation('admin');
  const q = new URLSearchParams(useSearch()).get('q') ?? '';
  const [text, setText] = useState(q);
  const found = useQuery({
    queryKey: ['admin', 'users', q],
    queryFn: () => adminApi<{ users: UserSummary[] }>('/users', { query: { q } }),
    enabled: q !== '',
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    const query = text.trim();
    if (query) navigate(`/admin/support?q=${encodeURIComponent(query)}`);
  }

  return (
    <>
      <h1 className="admin-title">{t('support.title')}</h1>
      <search>
        <form className="admin-inline-form" onSubmit={submit}>
          <div className="field">
            <label className="field__label" htmlFor="support-q">
              {t('support.search-label')}
            </label>
            <input
              id="support-q"
              className="input"
              value={text}
              onChange={(event) => setText(event.target.value)}
              maxLength={SEARCH_MAX}
              required
              aria-describedby="support-q-hint"
            />
            <span id="support-q-hint" className="field__hint">
              {t('support.search-hint')}
            </span>
          </div>
          <button type="submit" className="button button--primary">
            {t('support.search')}
          </button>
        </form>
      </search>
      {q && <QueryState pending={found.isPending} error={found.error} />}
      {found.data && found.data.users.length === 0 && <p role="status">{t('support.none')}</p>}
      {found.data && found.data.users.length > 0 && (
        <Table caption={t('support.results')}>
          <thead>
            <tr>
              <th scope="col">{t('fields.name')}</th>
              <th scope="col">{t('fields.phone')}</th>
              <th scope="col">{t('fields.email')}</th>
              <th scope="col">{t('fields.created')}</th>
            </tr>
          </thead>
          <tbody>
            {found.data.users.map((user) => (
              <tr key={user.id}>
                <td>
                  <Link href={`/support/users/${encodeURIComponent(user.id)}`}>
                    {[user.firstName, user.lastName].filter(Boolean).join(' ') || user.id}
                  </Link>
                  {user.deleted && <span className="admin-badge">{t('support.deleted')}</span>}
                </td>
                <td>{user.msisdn ?? '—'}</td>
                <td>{user.email ?? '—'}</td>
                <td>
                  <When at={user.createdAt} />
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </>
  );
}
