import { draftLandingSchema } from '@tunes/shared/console';
import { useEffect } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import type { z } from 'zod';
import { FormError } from '@/components/form-field';
import { adminApi } from '../../api';
import { schemaResolver, showFailure } from '../../forms';
import { consoleQueryClient } from '../../session';
import { ImageField, TextPair, UrlField } from './fields';
import { contentKey, type DraftLanding } from './types';

const resolver = schemaResolver(draftLandingSchema);
type Values = z.input<typeof draftLandingSchema>;

/** Content: the landing page's draft — banner, music video and the three reels. */
export function LandingForm({ landing }: { landing: DraftLanding }) {
  const { t } = useTranslation('admin');
  const form = useForm<Values, unknown, z.output<typeof draftLandingSchema>>({
    resolver,
    defaultValues: landing,
  });
  useEffect(() => form.reset(landing), [form, landing]);
  const { errors, isSubmitting } = form.formState;

  const save = form.handleSubmit(async (draft) => {
    try {
      await adminApi('/content/landing', { method: 'PUT', json: draft });
      await consoleQueryClient.invalidateQueries({ queryKey: contentKey });
      toast.success(t('content.saved'));
    } catch (failure) {
      showFailure(form, failure);
    }
  });

  return (
    <FormProvider {...form}>
      <form className="admin-form admin-section" noValidate onSubmit={save} aria-labelledby="landing-title">
        <h2 id="landing-title" className="admin-subtitle">
          {t('content.landing')}
        </h2>
        <TextPair id="banner-title" name="banner.title" label={t('content.banner-title')} />
        <TextPair
          id="banner-description"
          name="banner.description"
          label={t('content.banner-description')}
          multiline
        />
        <UrlField id="music-video" name="musicVideo" label={t('content.music-video')} />
        <ImageField id="music-video-image" name="musicVideoImage" />
        {landing.reels.map((_, index) => (
          <fieldset className="admin-group" key={`reel-${index.toString()}`}>
            <legend>{t('content.reel', { number: index + 1 })}</legend>
            <UrlField id={`reel-${index}-url`} name={`reels.${index}.url`} label={t('content.reel-url')} />
            <TextPair
              id={`reel-${index}-description`}
              name={`reels.${index}.description`}
              label={t('content.reel-description')}
            />
          </fieldset>
        ))}
        {errors.root?.server && <FormError>{errors.root.server.message}</FormError>}
        <button
          type="submit"
          className="button button--primary"
          disabled={isSubmitting}
          aria-busy={isSubmitting}
        >
          {t('content.save-landing')}
        </button>
      </form>
    </FormProvider>
  );
}
