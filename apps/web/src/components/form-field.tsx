import type { ComponentProps, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { isValidationKey } from '@/lib/i18n';

/** What a field hands its control, so the label, hint and error are announced with it. */
export interface FieldControlProps {
  id: string;
  'aria-invalid': boolean;
  'aria-describedby': string | undefined;
}

interface Props {
  /** The control's id; its hint is `<id>-hint`, its error `<id>-error`. */
  id: string;
  label: string;
  /** A `validation.*` key of the shared schemas (translated here) or a text already translated. */
  error?: string | undefined;
  hint?: ReactNode;
  className?: string;
  /** Renders the control (input, select, textarea, or a row around one) with the props given. */
  children(control: FieldControlProps): ReactNode;
}

/**
 * A form field: a label bound to its control, an optional hint, and the error that marks the
 * control invalid and is announced when it appears. Works with react-hook-form by spreading
 * `register(name)` (or a controller's field) on the control beside the props given here.
 */
export function FormField({ id, label, error, hint, className, children }: Props) {
  const { t } = useTranslation('common');
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={className ? `field ${className}` : 'field'}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      {children({ id, 'aria-invalid': Boolean(error), 'aria-describedby': describedBy })}
      {hint && (
        <span id={hintId} className="field__hint">
          {hint}
        </span>
      )}
      {error && (
        <p id={errorId} className="field__error" role="alert">
          {isValidationKey(error) ? t(error) : error}
        </p>
      )}
    </div>
  );
}

/** A form field whose control is the site's text input; it takes the input's props and `register(name)`. */
export function TextField({
  id,
  label,
  error,
  hint,
  className,
  ...input
}: Omit<Props, 'children'> & Omit<ComponentProps<'input'>, 'id' | 'className' | 'children'>) {
  return (
    <FormField id={id} label={label} error={error} hint={hint} className={className}>
      {(control) => <input {...control} className="input" {...input} />}
    </FormField>
  );
}

/** What went wrong with the form as a whole (the server's answer), announced when it appears. */
export function FormError({ children }: { children: ReactNode }) {
  return (
    <p className="form-error" role="alert">
      {children}
    </p>
  );
}
