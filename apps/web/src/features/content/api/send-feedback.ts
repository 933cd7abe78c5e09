import { useMutation } from '@tanstack/react-query';
import type { FeedbackRequest } from '@tunes/shared/content';
import { apiRequest } from '@/lib/api-client';

export function sendFeedback(input: FeedbackRequest): Promise<{ message: string }> {
  return apiRequest<{ message: string }>('/api/feedback', {
    method: 'POST',
    json: input,
    errors: { messages: { other: 'content:feedback.failed' } },
  });
}

export function useSendFeedback() {
  return useMutation({ mutationFn: sendFeedback });
}
