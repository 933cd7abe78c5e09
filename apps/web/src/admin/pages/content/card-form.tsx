import { cardFieldsSchema } from '@tunes/shared/console';
import { CONTENT_TYPES } from '@tunes/shared/content';
import { FormProvider, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import type { z } from 'zod';
import { FormError, FormField } from '@/components/form-field';
import { adminApi } from '../../api';
import { schemaResolver, showFailure } from '../../forms';
import { consoleQueryClient } from '../../session';
import { ImageField, TextPair, UrlField } from './fields';
import { type CardType, contentKey, type DraftCard } from './types';

const resolver = schemaResolver(cardFieldsSchema);
type Values = z.input<typeof cardFieldsSchema>;
type CardFields = Omit<DraftCard, 'id' | 'position'>;

export const emptyCard = (type: CardType): CardFields => ({
  type,
  title: { en: '', mn: '' },
  tunesUrl: '',
  image: '',
  trending: false,
});

/** One card's fields; a new card when `card` has no id. */
export function CardForm({ card, onDone }: { card: CardFields & { id?: string }; onDone?: () => void }) {
  const { t } = useTranslation('admin');
  const prefix = card.id ? `card-${card.id}` : 'card-new';
  const form = useForm<Values, unknown, z.output<typeof cardFieldsSchema>>({
    resolver,
    defaultValues: {
      type: card.type,
      title: card.title,
      tunesUrl: card.tunesUrl,
      image: card.image,
      trending: card.trending,
    },
  });
  const { errors, isSubmitting } = form.formState;
  const type = form.watch('type');

  const save = form.handleSubmit(async (body) => {
    try {
      if (card.id) await adminApi(`/content/cards/${card.id}`, { method: 'PATCH', json: body });
      else await adminApi('/content/cards', { method: 'POST', json: body });
      await consoleQueryClient.invalidateQueries({ queryKey: contentKey });
      toast.success(t('content.card-saved'));
      onDone?.();
    } catch (failure) {
      showFailure(form, failure);
    }
  });

  return (
    <FormProvider {...form}>
      <form className="admin-form admin-card-form" noValidate onSubmit={save}>
        <FormField id={`${prefix}-type`} label={t('content.card-type')} error={errors.type?.message}>
          {(control) => (
            <select {...control} className="select" {...form.register('type')}>
              {CONTENT_TYPES.map((option) => (
                <option key={option} value={option}>
                  {t(`content.types.${option}`)}
                </option>
              ))}
            </select>
          )}
        </FormField>
        <TextPair id={`${prefix}-title`} name="title" label={t('content.card-title')} />
        <UrlField id={`${prefix}-link`} name="tunesUrl" label={t('content.card-link')} />
        <ImageField id={`${prefix}-image`} name="image" />
        {type === 'SONG' && (
          <FormField
            id={`${prefix}-trending`}
            label={t('content.trending')}
            error={errors.trending?.message}
            className="admin-check-field"
          >
            {(control) => <input {...control} type="checkbox" {...form.register('trending')} />}
          </FormField>
        )}
        {errors.root?.server && <FormError>{errors.root.server.message}</FormError>}
        <button
          type="submit"
          className="button button--primary admin-small"
          disabled={isSubmitting}
          aria-busy={isSubmitting}
        >
          {card.id ? t('content.save-card') : t('content.add-card')}
        </button>
      </form>
    </FormProvider>
  );
}
