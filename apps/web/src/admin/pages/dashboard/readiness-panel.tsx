import { useQuery } from '@tanstack/react-query';
import type { Readiness, ReadinessCheck } from '@tunes/shared/readiness';
import { useTranslation } from 'react-i18next';
import { adminApi } from '../../api';
import { QueryState } from '../../components';

const ORDER = { missing: 0, notice: 1, ok: 2 } as const;

/** The count an ok check reports, in words (plans on sale, cards, admins). */
function Counted({ check }: { check: ReadinessCheck }) {
  const { t } = useTranslation('admin');
  const count = check.count ?? 0;
  if (check.count === undefined) return null;
  if (check.id === 'plans') return <>{t('first-run.counted.plans', { count })}</>;
  if (check.id === 'operators') return <>{t('first-run.counted.admins', { count })}</>;
  return <>{t('first-run.counted.cards', { count })}</>;
}

function CheckItem({ check }: { check: ReadinessCheck }) {
  const { t } = useTranslation('admin');
  const names = check.names?.join(', ') ?? '';
  return (
    <li className={`admin-readiness-item admin-readiness-item--${check.status}`}>
      <span className="admin-readiness-status">{t(`first-run.status.${check.status}`)}</span>{' '}
      <strong>{t(`first-run.checks.${check.id}`)}</strong>
      {check.reason ? (
        <> — {t(`first-run.reasons.${check.reason}`, { count: check.count ?? 0, names })}</>
      ) : (
        check.count !== undefined && (
          <>
            {' '}
            — <Counted check={check} />
          </>
        )
      )}
      {check.status !== 'ok' && check.command && (
        <p className="admin-muted">
          {t('first-run.run')} <code>{check.command}</code>
        </p>
      )}
      {check.status !== 'ok' && check.variables && (
        <p className="admin-muted">
          {t('first-run.set')}{' '}
          {check.variables.map((name, index) => (
            <span key={name}>
              {index > 0 && ', '}
              <code>{name}</code>
            </span>
          ))}
        </p>
      )}
    </li>
  );
}

/**
 * Admin, first on the dashboard: what the site still lacks before it can sell
 * (`GET /api/admin/readiness`), each with the command or settings that fix it. What is done
 * folds away once nothing is missing.
 */
export function ReadinessPanel() {
  const { t } = useTranslation('admin');
  const readiness = useQuery({
    queryKey: ['admin', 'readiness'],
    queryFn: () => adminApi<Readiness>('/readiness'),
  });
  const data = readiness.data;
  const sorted = data ? [...data.checks].sort((a, b) => ORDER[a.status] - ORDER[b.status]) : [];
  const open = sorted.filter((check) => check.status !== 'ok');
  const done = sorted.filter((check) => check.status === 'ok');
  return (
    <section className="admin-section" aria-labelledby="first-run-title">
      <h2 id="first-run-title" className="admin-subtitle">
        {t('first-run.title')}
      </h2>
      <QueryState pending={readiness.isPending} error={readiness.error} />
      {data && (
        <>
          <p>
            <strong>{data.ready ? t('first-run.ready') : t('first-run.not-ready')}</strong>
          </p>
          {open.length > 0 && (
            <ul className="admin-readiness" aria-label={t('first-run.to-do')}>
              {open.map((check) => (
                <CheckItem key={check.id} check={check} />
              ))}
            </ul>
          )}
          {done.length > 0 && (
            <details open={!data.ready}>
              <summary>{t('first-run.done', { count: done.length })}</summary>
              <ul className="admin-readiness">
                {done.map((check) => (
                  <CheckItem key={check.id} check={check} />
                ))}
              </ul>
            </details>
          )}
        </>
      )}
    </section>
  );
}
