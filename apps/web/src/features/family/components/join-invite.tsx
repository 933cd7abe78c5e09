import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { currentSubscription, useProfile } from '@/lib/auth';
import { useAcceptInvitation } from '../api/accept-invitation';
import { useSharedCode } from '../hooks/use-shared-code';
import styles from './family.module.css';

type Result = { kind: 'joined' } | { kind: 'refused'; message: string };

/**
 * The 'join premium' block (product.md §2/§4) for a signed-in user holding a pending shared code:
 * Accept invite, then 'now part of family plan' or the refusal in the red message area. A user
 * who is already a member of a shared plan (the invite link reloaded after accepting) is told
 * so instead of being offered the spent invitation again.
 */
export function JoinInvite() {
  const { t } = useTranslation('family');
  const { code, clear } = useSharedCode();
  const accept = useAcceptInvitation();
  const profile = useProfile();
  const [result, setResult] = useState<Result | null>(null);
  const [arrivedWithCode] = useState(() => code !== null);
  const isMember = currentSubscription(profile.data)?.Role === 'member';
  const alreadyMember = arrivedWithCode && isMember && result === null;

  // The stored code has done its work: forget it so the block does not come back.
  useEffect(() => {
    if (alreadyMember) clear();
  }, [alreadyMember, clear]);

  if (!code && !result && !alreadyMember) return null;
  // Until the profile says whether this user already shares a plan, no button to press.
  if (profile.isPending) return null;

  if (alreadyMember) {
    return (
      <section className={`card ${styles.block}`} aria-labelledby="join-premium-title">
        <h2 id="join-premium-title">{t('join.title')}</h2>
        <p className={styles.success}>{t('join.member')}</p>
      </section>
    );
  }

  const onAccept = () => {
    if (!code) return;
    setResult(null);
    accept.mutate(code, {
      onSuccess: () => {
        clear();
        setResult({ kind: 'joined' });
      },
      onError: (error) => setResult({ kind: 'refused', message: error.message }),
    });
  };

  return (
    <section className={`card ${styles.block}`} aria-labelledby="join-premium-title">
      <h2 id="join-premium-title">{t('join.title')}</h2>
      {result?.kind === 'joined' ? (
        <p className={styles.success} role="status">
          {t('join.success')}
        </p>
      ) : (
        <>
          <p>{t('join.text')}</p>
          <button
            type="button"
            className="button button--primary"
            onClick={onAccept}
            disabled={accept.isPending}
            aria-busy={accept.isPending}
          >
            {accept.isPending ? t('join.accepting') : t('join.accept')}
          </button>
          <p className={styles.error} role="alert">
            {result?.kind === 'refused' ? result.message : ''}
          </p>
        </>
      )}
    </section>
  );
}
