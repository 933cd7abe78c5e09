import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { userMessage } from '@/lib/api-error';
import { adminApi } from '../../api';
import { ConfirmedAction } from '../../components';
import { consoleQueryClient } from '../../session';
import { CardForm, emptyCard } from './card-form';
import { type CardType, contentKey, type DraftCard } from './types';

/** Content: the cards of one type in their order — edit, move, remove, add. */
export function CardList({ cards, type }: { cards: DraftCard[]; type: CardType }) {
  const { t, i18n } = useTranslation('admin');
  const [open, setOpen] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  const ofType = cards.filter((card) => card.type === type).sort((a, b) => a.position - b.position);
  const language = i18n.language === 'mn' ? 'mn' : 'en';

  async function move(index: number, by: -1 | 1) {
    const ids = ofType.map((card) => card.id);
    const [moved] = ids.splice(index, 1);
    if (!moved) return;
    ids.splice(index + by, 0, moved);
    try {
      await adminApi('/content/cards/order', { method: 'PUT', json: { type, ids } });
      await consoleQueryClient.invalidateQueries({ queryKey: contentKey });
    } catch (failure) {
      toast.error(userMessage(failure));
    }
  }

  return (
    <section className="admin-section" aria-labelledby={`cards-${type}`}>
      <h3 id={`cards-${type}`} className="admin-subtitle">
        {t(`content.types.${type}`)} ({ofType.length})
      </h3>
      <ol className="admin-cards">
        {ofType.map((card, index) => (
          <li key={card.id}>
            <div className="admin-card-row">
              <img className="admin-thumb" src={card.image} alt="" width={40} height={40} />
              <span className="admin-card-title">{card.title[language]}</span>
              <button
                type="button"
                className="button button--ghost admin-small"
                aria-expanded={open === card.id}
                onClick={() => setOpen(open === card.id ? null : card.id)}
              >
                {t('content.edit')}
                <span className="visually-hidden">: {card.title[language]}</span>
              </button>
              <button
                type="button"
                className="button button--ghost admin-small"
                disabled={index === 0}
                onClick={() => void move(index, -1)}
                aria-label={t('content.move-up', { title: card.title[language] })}
              >
                ↑
              </button>
              <button
                type="button"
                className="button button--ghost admin-small"
                disabled={index === ofType.length - 1}
                onClick={() => void move(index, 1)}
                aria-label={t('content.move-down', { title: card.title[language] })}
              >
                ↓
              </button>
              <ConfirmedAction
                label={t('content.remove')}
                title={t('content.remove-title', { title: card.title[language] })}
                danger
                run={async () => {
                  await adminApi(`/content/cards/${card.id}`, { method: 'DELETE' });
                  await consoleQueryClient.invalidateQueries({ queryKey: contentKey });
                  return t('content.removed');
                }}
              >
                <p>{t('content.remove-question')}</p>
              </ConfirmedAction>
            </div>
            {open === card.id && <CardForm card={card} onDone={() => setOpen(null)} />}
          </li>
        ))}
      </ol>
      {adding ? (
        <CardForm card={emptyCard(type)} onDone={() => setAdding(false)} />
      ) : (
        <button type="button" className="button button--ghost admin-small" onClick={() => setAdding(true)}>
          {t('content.new-card', { type: t(`content.types.${type}`) })}
        </button>
      )}
    </section>
  );
}
