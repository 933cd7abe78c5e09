import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { adminApi } from '../../api';
import { QueryState, When } from '../../components';
import type { FeedbackMessage } from './types';

/** One feedback message whole, with its sender to reply to. */
export function FeedbackReader({ id }: { id: string }) {
  const { t } = useTranslation('admin');
  const message = useQuery({
    queryKey: ['admin', 'feedback', 'message', id],
    queryFn: () => adminApi<{ feedback: FeedbackMessage }>(`/feedback/${encodeURIComponent(id)}`),
  });
  const feedback = message.data?.feedback;
  return (
    <>
      <p>
        <Link href="/feedback">{t('feedback.back')}</Link>
      </p>
      <h1 className="admin-title">{t('feedback.title')}</h1>
      <QueryState pending={message.isPending} error={message.error} />
      {feedback && (
        <article className="admin-section" aria-labelledby="feedback-from">
          <dl className="admin-facts">
            <dt id="feedback-from">{t('feedback.from')}</dt>
            <dd>
              {feedback.name} · <a href={`mailto:${feedback.email}`}>{feedback.email}</a>
            </dd>
            <dt>{t('feedback.received')}</dt>
            <dd>
              <When at={feedback.receivedAt} />
            </dd>
          </dl>
          <p className="admin-message admin-feedback-text" data-testid="feedback-text">
            {feedback.feedback}
          </p>
        </article>
      )}
    </>
  );
}
