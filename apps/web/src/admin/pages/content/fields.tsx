import { type ChangeEvent, useState } from 'react';
import { type FieldValues, get, useFormContext } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormField, TextField } from '@/components/form-field';
import { userMessage } from '@/lib/api-error';
import { adminApi } from '../../api';

const TEXT_MAX = 500;
const URL_MAX = 2000;
/** docs/console-api.md §3: the upload's cap and types, checked here first to say so at once. */
export const IMAGE_MAX_BYTES = 2 * 1024 * 1024;
export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;

/** The error react-hook-form holds for a field of the form around (nested names too). */
function useFieldError(name: string): string | undefined {
  const { formState } = useFormContext<FieldValues>();
  return (get(formState.errors, name) as { message?: string } | undefined)?.message;
}

/** A text in both languages side by side: the fields `<name>.en` and `<name>.mn`. */
export function TextPair({
  id,
  name,
  label,
  multiline = false,
}: {
  id: string;
  name: string;
  label: string;
  multiline?: boolean;
}) {
  const { t } = useTranslation('admin');
  const { register } = useFormContext<FieldValues>();
  const errors = { en: useFieldError(`${name}.en`), mn: useFieldError(`${name}.mn`) };
  return (
    <fieldset className="admin-pair">
      <legend className="field__label">{label}</legend>
      {(['en', 'mn'] as const).map((language) => (
        <FormField
          key={language}
          id={`${id}-${language}`}
          label={t(`language.${language}`)}
          error={errors[language]}
        >
          {(control) =>
            multiline ? (
              <textarea
                {...control}
                lang={language}
                className="textarea"
                maxLength={TEXT_MAX}
                {...register(`${name}.${language}`)}
              />
            ) : (
              <input
                {...control}
                lang={language}
                className="input"
                maxLength={TEXT_MAX}
                {...register(`${name}.${language}`)}
              />
            )
          }
        </FormField>
      ))}
    </fieldset>
  );
}

/** A link field of the form around. */
export function UrlField({ id, name, label }: { id: string; name: string; label: string }) {
  const { register } = useFormContext<FieldValues>();
  return (
    <TextField
      id={id}
      label={label}
      error={useFieldError(name)}
      inputMode="url"
      maxLength={URL_MAX}
      {...register(name)}
    />
  );
}

/** An image: its address, or a file uploaded here (type and size checked before sending). */
export function ImageField({ id, name }: { id: string; name: string }) {
  const { t } = useTranslation('admin');
  const { setValue, watch } = useFormContext<FieldValues>();
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const value = watch(name) as string;

  async function upload(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    setError(undefined);
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
      setValue(name, url, { shouldDirty: true, shouldValidate: true });
    } catch (failure) {
      setError(userMessage(failure));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="admin-image">
      <UrlField id={id} name={name} label={t('content.image')} />
      <FormField id={`${id}-file`} label={t('content.upload')} hint={t('content.upload-hint')} error={error}>
        {(control) => (
          <input {...control} type="file" accept={IMAGE_TYPES.join(',')} onChange={upload} disabled={busy} />
        )}
      </FormField>
      {value && <img className="admin-thumb" src={value} alt="" width={64} height={64} />}
    </div>
  );
}
