import { useTranslation } from 'react-i18next';
import { isValidationKey } from '@/lib/i18n';

/** A field's validation message: the shared schemas carry common `validation` keys. */
export function FieldError({ id, message }: { id: string; message?: string }) {
  const { t } = useTranslation('common');
  if (!message) return null;
  return (
    <p id={id} className="field__error" role="alert">
      {isValidationKey(message) ? t(message) : message}
    </p>
  );
}
