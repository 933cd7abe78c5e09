import { useTranslation } from 'react-i18next';
import { useReplaceCard } from '../api/replace-card';

/**
 * Replace card (Add a card without one): the gateway's save-card page, where nothing is charged.
 * The page says where it is going while the browser leaves.
 */
export function ReplaceCardButton({ hasCard, primary = false }: { hasCard: boolean; primary?: boolean }) {
  const { t } = useTranslation('billing');
  const replace = useReplaceCard();
  const busy = replace.isPending || replace.isSuccess;
  return (
    <>
      <button
        type="button"
        className={`button ${primary ? 'button--primary' : 'button--ghost'}`}
        onClick={() => replace.mutate()}
        disabled={busy}
        aria-busy={busy}
      >
        {hasCard ? t('card.replace') : t('card.add')}
      </button>
      <span className="visually-hidden" role="status">
        {busy ? t('card.redirecting') : ''}
      </span>
    </>
  );
}
