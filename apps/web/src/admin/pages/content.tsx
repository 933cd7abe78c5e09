import { useQuery } from '@tanstack/react-query';
import { type ChangeEvent, type FormEvent, lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { adminApi, errorText } from '../api';
import { ConfirmedAction, QueryState, When } from '../components';
import { consoleQueryClient } from '../session';
import type { CardType, ContentState, DraftCard, DraftLanding, Text2 } from './content-types';

const LandingPreview = lazy(() => import('./landing-preview'));

const TEXT_MAX = 500;
const URL_MAX = 2000;
/** docs/console-api.md §3: the upload's cap and types, checked here first to say so at once. */
export const IMAGE_MAX_BYTES = 2 * 1024 * 1024;
export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
const CARD_TYPES: readonly CardType[] = ['ARTIST', 'SONG', 'PLAYLIST'];
const contentKey = ['admin', 'content'];

/** A text in both languages, side by side. */
function TextPair({
  id,
  label,
  value,
  onChange,
  multiline = false,
}: {
  id: string;
  label: string;
  value: Text2;
  onChange(next: Text2): void;
  multiline?: boolean;
}) {
  const { t } = useTranslation('admin');
  return (
    <fieldset className="admin-pair">
      <legend className="field__label">{label}</legend>
      {(['en', 'mn'] as const).map((language) => (
        <div className="field" key={language}>
          <label className="field__hint" htmlFor={`${id}-${language}`}>
            {t(`language.${language}`)}
          </label>
          {multiline ? (
            <textarea
              id={`${id}-${language}`}
              lang={language}
              className="textarea"
              required
              maxLength={TEXT_MAX}
              value={value[language]}
              onChange={(event) => onChange({ ...value, [language]: event.target.value })}
            />
          ) : (
            <input
              id={`${id}-${language}`}
              lang={language}
              className="input"
              required
              maxLength={TEXT_MAX}
              value={value[language]}
              onChange={(event) => onChange({ ...value, [language]: event.target.value })}
            />
          )}
        </div>
      ))}
    </fieldset>
  );
}

function UrlField({
  id,
  label,
  value,
  onChange,
}: {
  id: string;
  label: string;
  value: string;
  onChange(next: string): void;
}) {
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        className="input"
        required
        maxLength={URL_MAX}
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
    </div>
  );
}

/** An image: its address, or a file uploaded here (type and size checked before sending). */
function ImageField({ id, value, onChange }: { id: string; value: string; onChange(next: string): void }) {
  const { t } = useTranslation('admin');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function upload(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    setError(null);
    if (!(IMAGE_TYPES as readonly string[]).includes(file.type)) {
      setError(t('content.image-type'));
      return;
    }
    if (file.size > IMAGE_MAX_BYTES) {
      setError(t('content.image-size'));
      return;
    }
    setBusy(true);
    try {
      const { url } = await adminApi<{ url: string }>('/content/images', { method: 'POST', file });
      onChange(url);
    } catch (failure) {
      setError(errorText(failure, t));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="admin-image">
      <UrlField id={id} label={t('content.image')} value={value} onChange={onChange} />
      <div className="field">
        <label className="field__label" htmlFor={`${id}-file`}>
          {t('content.upload')}
        </label>
        <input
          id={`${id}-file`}
          type="file"
          accept={IMAGE_TYPES.join(',')}
          onChange={upload}
          disabled={busy}
          aria-describedby={`${id}-file-hint${error ? ` ${id}-file-error` : ''}`}
        />
        <span id={`${id}-file-hint`} className="field__hint">
          {t('content.upload-hint')}
        </span>
        {error && (
          <p id={`${id}-file-error`} className="field__error" role="alert">
            {error}
          </p>
        )}
      </div>
      {value && <img className="admin-thumb" src={value} alt="" width={64} height={64} />}
    </div>
  );
}

function LandingForm({ landing }: { landing: DraftLanding }) {
  const { t } = useTranslation('admin');
  const [draft, setDraft] = useState(landing);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => setDraft(landing), [landing]);

  async function save(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await adminApi('/content/landing', { method: 'PUT', json: draft });
      await consoleQueryClient.invalidateQueries({ queryKey: contentKey });
      toast.success(t('content.saved'));
    } catch (failure) {
      setError(errorText(failure, t));
    } finally {
      setBusy(false);
    }
  }

  const setReel = (index: number, reel: DraftLanding['reels'][number]) =>
    setDraft({
      ...draft,
      reels: draft.reels.map((old, at) => (at === index ? reel : old)) as DraftLanding['reels'],
    });

  return (
    <form className="admin-form admin-section" onSubmit={save} aria-labelledby="landing-title">
      <h2 id="landing-title" className="admin-subtitle">
        {t('content.landing')}
      </h2>
      <TextPair
        id="banner-title"
        label={t('content.banner-title')}
        value={draft.banner.title}
        onChange={(title) => setDraft({ ...draft, banner: { ...draft.banner, title } })}
      />
      <TextPair
        id="banner-description"
        label={t('content.banner-description')}
        multiline
        value={draft.banner.description}
        onChange={(description) => setDraft({ ...draft, banner: { ...draft.banner, description } })}
      />
      <UrlField
        id="music-video"
        label={t('content.music-video')}
        value={draft.musicVideo}
        onChange={(musicVideo) => setDraft({ ...draft, musicVideo })}
      />
      <ImageField
        id="music-video-image"
        value={draft.musicVideoImage}
        onChange={(musicVideoImage) => setDraft({ ...draft, musicVideoImage })}
      />
      {draft.reels.map((reel, index) => (
        <fieldset className="admin-group" key={`reel-${index.toString()}`}>
          <legend>{t('content.reel', { number: index + 1 })}</legend>
          <UrlField
            id={`reel-${index}-url`}
            label={t('content.reel-url')}
            value={reel.url}
            onChange={(url) => setReel(index, { ...reel, url })}
          />
          <TextPair
            id={`reel-${index}-description`}
            label={t('content.reel-description')}
            value={reel.description}
            onChange={(description) => setReel(index, { ...reel, description })}
          />
        </fieldset>
      ))}
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" className="button button--primary" disabled={busy} aria-busy={busy}>
        {t('content.save-landing')}
      </button>
    </form>
  );
}

const emptyCard = (type: CardType): Omit<DraftCard, 'id' | 'position'> => ({
  type,
  title: { en: '', mn: '' },
  tunesUrl: '',
  image: '',
  trending: false,
});

/** One card's fields; a new card when `card` has no id. */
function CardForm({
  card,
  onDone,
}: {
  card: Omit<DraftCard, 'id' | 'position'> & { id?: string };
  onDone?: () => void;
}) {
  const { t } = useTranslation('admin');
  const [draft, setDraft] = useState(card);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const prefix = card.id ? `card-${card.id}` : 'card-new';
  useEffect(() => setDraft(card), [card]);

  async function save(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    const body = {
      type: draft.type,
      title: draft.title,
      tunesUrl: draft.tunesUrl,
      image: draft.image,
      trending: draft.trending,
    };
    try {
      if (card.id) await adminApi(`/content/cards/${card.id}`, { method: 'PATCH', json: body });
      else await adminApi('/content/cards', { method: 'POST', json: body });
      await consoleQueryClient.invalidateQueries({ queryKey: contentKey });
      toast.success(t('content.card-saved'));
      onDone?.();
    } catch (failure) {
      setError(errorText(failure, t));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="admin-form admin-card-form" onSubmit={save}>
      <div className="field">
        <label className="field__label" htmlFor={`${prefix}-type`}>
          {t('content.card-type')}
        </label>
        <select
          id={`${prefix}-type`}
          className="select"
          value={draft.type}
          onChange={(event) => setDraft({ ...draft, type: event.target.value as CardType })}
        >
          {CARD_TYPES.map((type) => (
            <option key={type} value={type}>
              {t(`content.types.${type}`)}
            </option>
          ))}
        </select>
      </div>
      <TextPair
        id={`${prefix}-title`}
        label={t('content.card-title')}
        value={draft.title}
        onChange={(title) => setDraft({ ...draft, title })}
      />
      <UrlField
        id={`${prefix}-link`}
        label={t('content.card-link')}
        value={draft.tunesUrl}
        onChange={(tunesUrl) => setDraft({ ...draft, tunesUrl })}
      />
      <ImageField
        id={`${prefix}-image`}
        value={draft.image}
        onChange={(image) => setDraft({ ...draft, image })}
      />
      {draft.type === 'SONG' && (
        <label className="admin-check">
          <input
            type="checkbox"
            checked={draft.trending}
            onChange={(event) => setDraft({ ...draft, trending: event.target.checked })}
          />
          {t('content.trending')}
        </label>
      )}
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" className="button button--primary admin-small" disabled={busy} aria-busy={busy}>
        {card.id ? t('content.save-card') : t('content.add-card')}
      </button>
    </form>
  );
}

function CardList({ cards, type }: { cards: DraftCard[]; type: CardType }) {
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
      toast.error(errorText(failure, t));
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

/** Content: the landing page's draft, its cards, a preview as a listener sees it, and publish. */
export default function ContentPage() {
  const { t } = useTranslation('admin');
  const content = useQuery({ queryKey: contentKey, queryFn: () => adminApi<ContentState>('/content') });
  const [preview, setPreview] = useState<'en' | 'mn' | null>(null);

  if (!content.data) return <QueryState pending={content.isPending} error={content.error} />;
  const { landing, cards, changed, publishedAt, publishedRevision } = content.data;

  return (
    <>
      <h1 className="admin-title">{t('content.title')}</h1>
      <div className="admin-publish" role="status">
        <p>
          {changed ? t('content.unpublished') : t('content.up-to-date')}{' '}
          <span className="admin-muted">
            {t('content.published', { revision: publishedRevision })} <When at={publishedAt} />
          </span>
        </p>
        <div className="admin-actions">
          <button
            type="button"
            className="button button--ghost admin-small"
            onClick={() => setPreview(preview ? null : 'en')}
            aria-expanded={preview !== null}
          >
            {preview ? t('content.hide-preview') : t('content.preview')}
          </button>
          <ConfirmedAction
            label={t('content.publish')}
            title={t('content.publish')}
            disabled={!changed}
            run={async () => {
              const { revision } = await adminApi<{ revision: number }>('/content/publish', {
                method: 'POST',
                json: {},
              });
              await consoleQueryClient.invalidateQueries({ queryKey: contentKey });
              return t('content.published-now', { revision });
            }}
          >
            <p>{t('content.publish-question')}</p>
          </ConfirmedAction>
          <ConfirmedAction
            label={t('content.discard')}
            title={t('content.discard')}
            danger
            disabled={!changed}
            run={async () => {
              await adminApi('/content/discard', { method: 'POST', json: {} });
              await consoleQueryClient.invalidateQueries({ queryKey: contentKey });
              return t('content.discarded');
            }}
          >
            <p>{t('content.discard-question')}</p>
          </ConfirmedAction>
        </div>
      </div>
      {preview && (
        <section className="admin-section" aria-labelledby="preview-title">
          <div className="admin-topline">
            <h2 id="preview-title" className="admin-subtitle">
              {t('content.preview-title')}
            </h2>
            <fieldset className="admin-segmented">
              <legend className="visually-hidden">{t('content.preview-language')}</legend>
              {(['en', 'mn'] as const).map((language) => (
                <label key={language}>
                  <input
                    type="radio"
                    name="preview-language"
                    checked={preview === language}
                    onChange={() => setPreview(language)}
                  />
                  {t(`language.${language}`)}
                </label>
              ))}
            </fieldset>
          </div>
          <Suspense fallback={<p role="status">{t('loading')}</p>}>
            <LandingPreview language={preview} />
          </Suspense>
        </section>
      )}
      <LandingForm landing={landing} />
      <h2 className="admin-subtitle">{t('content.cards')}</h2>
      {CARD_TYPES.map((type) => (
        <CardList key={type} cards={cards} type={type} />
      ))}
    </>
  );
}
