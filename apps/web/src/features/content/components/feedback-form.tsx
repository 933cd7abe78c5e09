import { EMAIL_MAX_LENGTH } from '@tunes/shared/constants';
import type { FeedbackRequest } from '@tunes/shared/content';
import {
  FEEDBACK_NAME_MAX_LENGTH,
  FEEDBACK_SUCCESS_MESSAGE,
  FEEDBACK_TEXT_MAX_LENGTH,
} from '@tunes/shared/feedback-rules';
import { useState } from 'react';
import { type FieldPath, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormError, FormField } from '@/components/form-field';
import type { TranslationKey } from '@/lib/i18n';
import { lazyZodResolver } from '@/lib/lazy-resolver';
import { useSendFeedback } from '../api/send-feedback';
import styles from './contact.module.css';

type Result = { kind: 'success' | 'error'; text: string };
type FeedbackForm = { name: string; email: string; feedback: string };

const resolver = lazyZodResolver<FeedbackForm, FeedbackRequest>(() =>
  import('@tunes/shared/content').then((content) => content.feedbackRequestSchema),
);

const FIELDS: {
  name: FieldPath<FeedbackForm>;
  label: TranslationKey<'content'>;
  type: 'text' | 'email' | 'textarea';
  max: number;
  autoComplete: string;
}[] = [
  { name: 'name', label: 'feedback.name', type: 'text', max: FEEDBACK_NAME_MAX_LENGTH, autoComplete: 'name' },
  { name: 'email', label: 'feedback.email', type: 'email', max: EMAIL_MAX_LENGTH, autoComplete: 'email' },
  {
    name: 'feedback',
    label: 'feedback.feedback',
    type: 'textarea',
    max: FEEDBACK_TEXT_MAX_LENGTH,
    autoComplete: 'off',
  },
];

/** The feedback form of /contact (product.md §2, §5, §7): all fields required; clears on success. */
export function FeedbackForm() {
  const { t } = useTranslation('content');
  const send = useSendFeedback();
  const [result, setResult] = useState<Result | null>(null);
  const { register, handleSubmit, reset, setError, formState } = useForm<
    FeedbackForm,
    unknown,
    FeedbackRequest
  >({
    resolver,
    defaultValues: { name: '', email: '', feedback: '' },
  });

  const onSubmit = handleSubmit((values) => {
    setResult(null);
    send.mutate(values, {
      onSuccess: ({ message }) => {
        reset();
        setResult({
          kind: 'success',
          text: message === FEEDBACK_SUCCESS_MESSAGE ? t('feedback.success') : message,
        });
      },
      onError: (error) => {
        // The server names the field it refused; the form marks it with the schema's message.
        const { field } = error;
        if (field === 'name' || field === 'email' || field === 'feedback') {
          setError(field, {
            message: field === 'email' ? 'validation.enter-valid-email' : 'validation.required',
          });
        }
        setResult({ kind: 'error', text: error.message });
      },
    });
  });

  return (
    <section className={`card ${styles.formCard}`} aria-labelledby="feedback-title">
      <h2 id="feedback-title">{t('feedback.title')}</h2>
      <p className={styles.muted}>{t('feedback.intro')}</p>
      <form onSubmit={onSubmit} onFocus={resolver.warm} noValidate>
        {FIELDS.map(({ name, label, type, max, autoComplete }) => (
          <FormField
            key={name}
            id={`feedback-${name}`}
            label={t(label)}
            error={formState.errors[name]?.message}
          >
            {(control) => {
              const shared = {
                ...control,
                maxLength: max,
                autoComplete,
                'aria-required': true,
                ...register(name, { onChange: () => result && setResult(null) }),
              };
              return type === 'textarea' ? (
                <textarea className="textarea" rows={6} {...shared} />
              ) : (
                <input className="input" type={type} {...shared} />
              );
            }}
          </FormField>
        ))}
        <div aria-live="polite">
          {result?.kind === 'success' && (
            <p className={`form-success ${styles.result}`} role="status">
              {result.text}
            </p>
          )}
        </div>
        {result?.kind === 'error' && <FormError>{result.text}</FormError>}
        <button
          type="submit"
          className="button button--primary"
          disabled={send.isPending}
          aria-busy={send.isPending}
        >
          {send.isPending ? t('feedback.sending') : t('feedback.submit')}
        </button>
      </form>
    </section>
  );
}
