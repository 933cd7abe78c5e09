import { invitationLink } from '@tunes/shared/family-codes';
import { useTranslation } from 'react-i18next';
import { toast } from '@/lib/toast';
import styles from './family.module.css';

async function copyText(text: string, field: HTMLInputElement | null): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    // Clipboard API refused (insecure origin, permissions): fall back to the selection.
    field?.select();
    if (!document.execCommand('copy')) throw new Error('copy refused');
  }
}

/** Each generated link in a read-only field with a Copy button (product.md §2). */
export function InviteLinks({ codes }: { codes: string[] }) {
  const { t } = useTranslation('family');
  if (codes.length === 0) return null;
  return (
    <ul className={styles.links} aria-label={t('invite.links')}>
      {codes.map((code, index) => {
        const link = invitationLink(location.origin, code);
        const id = `invite-link-${index}`;
        return (
          <li key={code} className={styles.linkRow}>
            <label className="visually-hidden" htmlFor={id}>
              {t('invite.link-label', { number: index + 1 })}
            </label>
            <input
              id={id}
              className={`input ${styles.linkField}`}
              value={link}
              readOnly
              onFocus={(event) => event.currentTarget.select()}
            />
            <button
              type="button"
              className={`button button--ghost ${styles.copy}`}
              aria-label={t('invite.copy-label', { number: index + 1 })}
              onClick={async () => {
                try {
                  await copyText(link, document.getElementById(id) as HTMLInputElement | null);
                  toast.success(t('invite.copied'));
                } catch (error) {
                  console.error('Copying the link failed', error);
                }
              }}
            >
              {t('invite.copy')}
            </button>
          </li>
        );
      })}
    </ul>
  );
}
