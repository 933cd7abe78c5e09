import { useTranslation } from 'react-i18next';

/** A field's validation message: shared schemas carry translation keys (common or accounts). */
export function FieldError({ id, message }: { id: string; message?: string }) {
  const { t } = useTranslation('accounts');
  if (!message) return null;
  return (
    <p id={id} className="field__error" role="alert">
      {message.startsWith('validation.') ? t(message, { ns: ['accounts', 'common'] }) : message}
    </p>
  );
}
