import { useMutation } from '@tanstack/react-query';
import type { SentInvitation } from '@tunes/shared/invitation-send';
import { apiRequest } from '@/lib/api-client';

export interface InvitationToSend {
  code: string;
  /** A phone number or an e-mail address. */
  to: string;
}

/** `POST /api/subscription/{id}/invitation-codes/{code}/send`: the link by SMS or e-mail. */
export function sendInvitation(
  subscriptionId: string,
  { code, to }: InvitationToSend,
): Promise<SentInvitation> {
  return apiRequest<SentInvitation>(
    `/api/subscription/${encodeURIComponent(subscriptionId)}/invitation-codes/${encodeURIComponent(code)}/send`,
    {
      method: 'POST',
      json: { To: to },
      auth: true,
      errors: {
        messages: {
          '400': 'common:validation.invite-recipient',
          '404': 'family:invite.withdraw-failed',
          '429': 'family:invite.send-limit',
          other: 'family:invite.send-failed',
        },
      },
    },
  );
}

export function useSendInvitation(subscriptionId: string) {
  return useMutation({
    mutationFn: (invitation: InvitationToSend) => sendInvitation(subscriptionId, invitation),
  });
}
