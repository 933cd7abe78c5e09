import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { adminApi, type Role } from '../../api';
import { ConfirmedAction, QueryState, Table, When } from '../../components';
import { consoleQueryClient } from '../../session';
import { PaymentsSection } from './payments';
import { SubscriptionsSection } from './subscriptions';
import type { MessageView, UserDetail, UserSummary } from './types';

export const nameOf = (user: UserSummary) =>
  [user.firstName, user.lastName].filter(Boolean).join(' ') || user.msisdn || user.email || user.id;

export const userKey = (userId: string) => ['admin', 'user', userId];

/** One listener as support reads them (`GET /api/admin/users/{id}`). */
export function useUserDetail(userId: string) {
  return useQuery({
    queryKey: userKey(userId),
    queryFn: () => adminApi<UserDetail>(`/users/${encodeURIComponent(userId)}`),
  });
}

/** Support: one listener's profile, subscriptions, family, payments, messages, and the actions. */
export default function SupportUserPage({ userId, role }: { userId: string; role: Role }) {
  const { t } = useTranslation('admin');
  const detail = useUserDetail(userId);
  const base = `/users/${encodeURIComponent(userId)}`;
  const reload = () => consoleQueryClient.invalidateQueries({ queryKey: userKey(userId) });

  if (!detail.data) return <QueryState pending={detail.isPending} error={detail.error} />;
  const { user, subscriptions, family, payments, messages, activeSessions } = detail.data;

  return (
    <>
      <p>
        <Link href="/support">{t('support.back')}</Link>
      </p>
      <h1 className="admin-title">{nameOf(user)}</h1>
      <section aria-labelledby="profile-title" className="admin-section">
        <h2 id="profile-title" className="admin-subtitle">
          {t('support.profile')}
        </h2>
        <dl className="admin-facts">
          <dt>{t('fields.id')}</dt>
          <dd>{user.id}</dd>
          <dt>{t('fields.phone')}</dt>
          <dd>{user.msisdn ?? '—'}</dd>
          <dt>{t('fields.email')}</dt>
          <dd>{user.email ?? '—'}</dd>
          <dt>{t('fields.language')}</dt>
          <dd>{user.language}</dd>
          <dt>{t('fields.created')}</dt>
          <dd>
            <When at={user.createdAt} />
          </dd>
          <dt>{t('support.sessions')}</dt>
          <dd>{activeSessions}</dd>
        </dl>
        {user.deleted && <p className="admin-badge">{t('support.deleted')}</p>}
        <ConfirmedAction
          label={t('support.end-sessions')}
          title={t('support.end-sessions')}
          danger
          run={async () => {
            const { ended } = await adminApi<{ ended: number }>(`${base}/sessions/end`, {
              method: 'POST',
              json: {},
            });
            await reload();
            return t('support.sessions-ended', { count: ended });
          }}
        >
          <p>{t('support.end-sessions-question')}</p>
        </ConfirmedAction>
      </section>
      <SubscriptionsSection subscriptions={subscriptions} base={base} reload={reload} />
      <FamilySection family={family} />
      <PaymentsSection userId={user.id} payments={payments} base={base} role={role} reload={reload} />
      <MessagesSection messages={messages} />
    </>
  );
}

function FamilySection({ family }: { family: UserDetail['family'] }) {
  const { t } = useTranslation('admin');
  return (
    <section aria-labelledby="family-title" className="admin-section">
      <h2 id="family-title" className="admin-subtitle">
        {t('support.family')}
      </h2>
      {family.length === 0 ? (
        <p>{t('support.no-family')}</p>
      ) : (
        family.map((group) => (
          <div key={group.subscriptionId}>
            <p>
              {t('support.owner')}:{' '}
              <Link href={`/support/users/${group.owner.id}`}>{nameOf(group.owner)}</Link>
            </p>
            <p>{t('support.members', { members: group.members.length, seats: group.seats })}</p>
            <ul>
              {group.members.map((member) => (
                <li key={member.id}>
                  <Link href={`/support/users/${member.id}`}>{nameOf(member)}</Link>
                </li>
              ))}
            </ul>
          </div>
        ))
      )}
    </section>
  );
}

function MessagesSection({ messages }: { messages: MessageView[] }) {
  const { t } = useTranslation('admin');
  return (
    <section aria-labelledby="messages-title" className="admin-section">
      <h2 id="messages-title" className="admin-subtitle">
        {t('support.messages')}
      </h2>
      {messages.length === 0 ? (
        <p>{t('support.no-messages')}</p>
      ) : (
        <Table caption={t('support.messages')}>
          <thead>
            <tr>
              <th scope="col">{t('fields.date')}</th>
              <th scope="col">{t('fields.channel')}</th>
              <th scope="col">{t('fields.to')}</th>
              <th scope="col">{t('fields.text')}</th>
            </tr>
          </thead>
          <tbody>
            {messages.map((message) => (
              <tr key={`${message.createdAt}-${message.to}-${message.text.slice(0, 20)}`}>
                <td>
                  <When at={message.createdAt} />
                </td>
                <td>{t(`channels.${message.channel}`)}</td>
                <td>{message.to}</td>
                <td className="admin-message">{message.text}</td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </section>
  );
}
