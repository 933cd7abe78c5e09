import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { adminApi } from '../api';
import { Pager, QueryState, Table, useKeysetPages, When } from '../components';
// The console bundles its catalogues whole (i18n.ts): the English one lists the names it knows.
import adminEn from '../locales/en';

interface AuditEntry {
  id: string;
  at: string;
  operator: { id: string; email: string };
  action: string;
  targetType: string;
  targetId: string | null;
  /** What the target is called now (a listener's name and e-mail, an operator's e-mail…). */
  targetName: string | null;
  before: unknown;
  after: unknown;
}

const PAGE_SIZE = 50;
type ActionKey = keyof typeof adminEn.audit.actions;
type TargetKey = keyof typeof adminEn.audit.targets;

/** An action's catalogue key (`user.extend` → `user_extend`), when the console names it. */
function actionKey(action: string): ActionKey | null {
  const key = action.replaceAll('.', '_');
  return isKeyOf<ActionKey>(key, ACTION_KEYS) ? key : null;
}
function targetKey(type: string): TargetKey | null {
  return isKeyOf<TargetKey>(type, TARGET_KEYS) ? type : null;
}
const isKeyOf = <K extends string>(key: string, keys: readonly string[]): key is K => keys.includes(key);
const ACTION_KEYS = Object.keys(adminEn.audit.actions);
const TARGET_KEYS = Object.keys(adminEn.audit.targets);

function Change({ label, value }: { label: string; value: unknown }) {
  if (value === null || value === undefined) return null;
  return (
    <details>
      <summary>{label}</summary>
      <pre className="admin-json">{JSON.stringify(value, null, 2)}</pre>
    </details>
  );
}

/** One entry: when, who (e-mail), what in words (its code beside), on what by name (its id beside). */
function EntryRow({ entry }: { entry: AuditEntry }) {
  const { t } = useTranslation('admin');
  const action = actionKey(entry.action);
  const target = targetKey(entry.targetType);
  return (
    <tr>
      <td>
        <When at={entry.at} />
      </td>
      <td>
        {entry.operator.email}
        <div className="admin-muted">
          {t('audit.id')}: <code>{entry.operator.id}</code>
        </div>
      </td>
      <td>
        {action ? t(`audit.actions.${action}`) : entry.action}
        <div className="admin-muted">
          {t('audit.code')}: <code>{entry.action}</code>
        </div>
      </td>
      <td>
        {target ? t(`audit.targets.${target}`) : entry.targetType}
        {entry.targetName && <div>{entry.targetName}</div>}
        {entry.targetId && (
          <div className="admin-muted">
            {t('audit.id')}: <code>{entry.targetId}</code>
          </div>
        )}
      </td>
      <td>
        <Change label={t('audit.before')} value={entry.before} />
        <Change label={t('audit.after')} value={entry.after} />
      </td>
    </tr>
  );
}

/** Admin: every operator action, newest first, a page at a time. */
export default function AuditPage() {
  const { t } = useTranslation('admin');
  const pages = useKeysetPages();
  const audit = useQuery({
    queryKey: ['admin', 'audit', pages.before],
    queryFn: () =>
      adminApi<{ entries: AuditEntry[]; nextBefore: string | null }>('/audit', {
        query: { limit: PAGE_SIZE, before: pages.before },
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
                <EntryRow key={entry.id} entry={entry} />
              ))}
            </tbody>
          </Table>
          <Pager pages={pages} next={audit.data.nextBefore} />
        </>
      )}
    </>
  );
}
