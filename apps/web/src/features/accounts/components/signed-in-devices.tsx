import type { Session } from '@tunes/shared/accounts';
import { useTranslation } from 'react-i18next';
import { FormError } from '@/components/form-field';
import { formatDateTime } from '@/lib/format';
import { toast } from '@/lib/toast';
import { useEndSessions } from '../api/end-sessions';
import { useSessions } from '../api/get-sessions';
import styles from './self-service.module.css';

function useDateTime() {
  const { i18n } = useTranslation();
  return (iso: string) => formatDateTime(iso, i18n.language);
}

/**
 * The signed-in devices (product.md §14): each refresh-token family with its device, place and
 * times, this one marked; sign out one, or every other.
 */
export function SignedInDevices() {
  const { t } = useTranslation('accounts');
  const { t: tCommon } = useTranslation('common');
  const sessions = useSessions();
  const end = useEndSessions();
  const list = sessions.data ?? [];
  const others = list.filter((session) => !session.current);

  const signOut = (id?: string) =>
    end.mutate(id, {
      onSuccess: () => toast.success(id ? t('devices.signed-out') : t('devices.signed-out-others')),
    });

  return (
    <section className={`card ${styles.card}`} aria-labelledby="devices-title">
      <h2 id="devices-title" className={styles.heading}>
        {t('devices.title')}
      </h2>
      <p className={styles.intro}>{t('devices.intro')}</p>
      {sessions.isPending && <p role="status">{tCommon('loading')}</p>}
      {sessions.isError && <FormError>{sessions.error.message}</FormError>}
      {list.length > 0 && (
        <ul className={styles.devices} aria-labelledby="devices-title">
          {list.map((session) => (
            <Device key={session.id} session={session} busy={end.isPending} onSignOut={signOut} />
          ))}
        </ul>
      )}
      {sessions.isSuccess &&
        (others.length > 0 ? (
          <div className={styles.actions}>
            <button
              type="button"
              className="button button--danger"
              disabled={end.isPending}
              onClick={() => signOut()}
            >
              {t('devices.sign-out-others')}
            </button>
          </div>
        ) : (
          <p className={styles.intro}>{t('devices.only-this')}</p>
        ))}
    </section>
  );
}

function Device({
  session,
  busy,
  onSignOut,
}: {
  session: Session;
  busy: boolean;
  onSignOut(id: string): void;
}) {
  const { t } = useTranslation('accounts');
  const dateTime = useDateTime();
  const lastUsed = dateTime(session.lastUsedAt);
  return (
    <li className={styles.device}>
      <div>
        <p className={styles.deviceName}>
          {session.device}
          {session.current && <span className={styles.badge}>{t('devices.this-device')}</span>}
        </p>
        <p className={styles.deviceMeta}>
          {t('devices.last-used', { date: lastUsed })} ·{' '}
          {t('devices.signed-in', { date: dateTime(session.signedInAt) })}
          {session.address && ` · ${t('devices.from', { address: session.address })}`}
        </p>
      </div>
      {!session.current && (
        <button
          type="button"
          className="button button--ghost"
          aria-label={t('devices.sign-out-device', { device: session.device, date: lastUsed })}
          disabled={busy}
          onClick={() => onSignOut(session.id)}
        >
          {t('devices.sign-out')}
        </button>
      )}
    </li>
  );
}
