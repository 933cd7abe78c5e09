/** `GET /api/admin/feedback` and `GET /api/admin/feedback/{id}` (docs/console-api.md §4). */
export interface FeedbackSummary {
  id: string;
  name: string;
  email: string;
  preview: string;
  receivedAt: string;
}

export interface FeedbackMessage extends Omit<FeedbackSummary, 'preview'> {
  feedback: string;
}

export interface FeedbackPage {
  entries: FeedbackSummary[];
  nextBefore: string | null;
}
