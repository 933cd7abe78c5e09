import { useQuery } from '@tanstack/react-query';
import { userSearchSchema } from '@tunes/shared/console';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useSearch } from 'wouter';
import { navigate } from 'wouter/use-browser-location';
import type { z } from 'zod';
import { TextField } from '@/components/form-field';
import { adminApi } from '../../api';
import { QueryState, Table, When } from '../../components';
import { schemaResolver } from '../../forms';
import type { UserSummary } from './types';

export const SEARCH_MAX = 254;
const resolver = schemaResolver(userSearchSchema);
type Values = z.input<typeof userSearchSchema>;

/** Support: find a listener by phone, e-mail or id. */
export default function SupportSearchPage() {
  const { t } = useTranslation('admin');
  const q = new URLSearchParams(useSearch()).get('q') ?? '';
  const found = useQuery({
    queryKey: ['admin', 'users', q],
    queryFn: () => adminApi<{ users: UserSummary[] }>('/users', { query: { q } }),
    enabled: q !== '',
  });
  const form = useForm<Values, unknown, z.output<typeof userSearchSchema>>({
    resolver,
    defaultValues: { q },
  });
  const submit = form.handleSubmit(({ q: query }) =>
    navigate(`/admin/support?q=${encodeURIComponent(query)}`),
  );

  return (
    <>
      <h1 className="admin-title">{t('support.title')}</h1>
      <search>
        <form className="admin-inline-form" noValidate onSubmit={submit}>
          <TextField
            id="support-q"
            label={t('support.search-label')}
            hint={t('support.search-hint')}
            error={form.formState.errors.q?.message}
            maxLength={SEARCH_MAX}
            {...form.register('q')}
          />
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
