import { API_ERROR_CODES } from '@tunes/shared/error-codes';
import { invitationLink } from '@tunes/shared/family-codes';
import { invitationRecipientOf, type SentInvitation } from '@tunes/shared/invitation-send';
import { formatPhoneForDisplay } from '@tunes/shared/phone-number';
import type { Deps } from '../../deps.js';
import { badRequest, conflict, notFound } from '../../lib/errors.js';
import { LIMITS } from '../../lib/limits.js';
import type { ErrorLog } from '../../lib/logging.js';
import { messageDate } from '../../lib/message-date.js';
import { languageOf } from '../../lib/message-language.js';
import { takeSendBudget } from '../notifications/send-budget.js';
import { sendToAccount } from '../notifications/send-to-account.js';
import { invitationMessages } from './invitation-messages.js';
import { ownedSharingPlan } from './sharing-plan.js';
import './tables.js';

type SendDeps = Pick<Deps, 'db' | 'clock' | 'config' | 'throttle'>;

export interface InvitationSend {
  subscriptionId: string;
  ownerId: string;
  code: string;
  /** A phone number or an e-mail address, as the owner typed it. */
  to: string;
  clientAddress: string;
}

/**
 * The owner sends one of their plan's live invitation links to a phone number (SMS) or an e-mail
 * address, in the owner's language (issue 37). The link is the one the owner sees, so the spec's
 * rules hold as they do for a copied link: one person, once, until it expires after 5 days, and
 * a send takes no seat of its own. Each send takes the owner's hourly and daily budgets, the
 * recipient's daily one and the site's send budgets in one atomic step each (all or none), so a
 * burst sends no more than those limits allow.
 */
export async function sendInvitation(
  deps: SendDeps,
  send: InvitationSend,
  log?: ErrorLog,
): Promise<SentInvitation> {
  const recipient = invitationRecipientOf(send.to);
  if (!recipient) throw badRequest('Enter a phone number or an e-mail address.', 'To');
  const now = deps.clock.now();
  const plan = await ownedSharingPlan(deps.db, send.subscriptionId, send.ownerId);
  if (plan.end_date <= now) throw conflict('This plan has ended.', API_ERROR_CODES.planEnded);
  const invitation = await deps.db
    .selectFrom('invitation_codes')
    .select('expires_at')
    .where('code', '=', send.code)
    .where('subscription_id', '=', send.subscriptionId)
    .where('used_by', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  if (!invitation) throw notFound('No such unused invitation on your plan.');

  const [hourly, daily] = LIMITS.invitationSendsPerOwner;
  await takeSendBudget(
    deps,
    {
      channel: recipient.channel,
      recipient: recipient.to,
      clientAddress: send.clientAddress,
      sender: 'account',
    },
    [
      [`invitation-sends:owner:${send.ownerId}:hour`, hourly],
      [`invitation-sends:owner:${send.ownerId}:day`, daily],
      [`invitation-sends:to:${recipient.to}`, LIMITS.invitationSendsPerRecipient],
    ],
  );

  const owner = await deps.db
    .selectFrom('users')
    .select(['first_name', 'phone_number', 'language'])
    .where('id', '=', send.ownerId)
    .executeTakeFirstOrThrow();
  const lang = languageOf(owner.language);
  const who =
    owner.first_name.trim() || (owner.phone_number ? formatPhoneForDisplay(owner.phone_number) : null);
  const expiresAt = new Date(invitation.expires_at);
  const link = invitationLink(deps.config.PUBLIC_URL, send.code);
  const text = invitationMessages.text(lang, who, messageDate(expiresAt, lang), link);
  // The message belongs to no account of the recipient's: an invitee may have none yet.
  await sendToAccount(
    deps,
    null,
    recipient.channel === 'sms'
      ? { channel: 'sms', to: recipient.to, text, link }
      : { channel: 'email', to: recipient.to, subject: invitationMessages.subject(lang, who), text, link },
    log,
  );
  return { Channel: recipient.channel, ExpiresAt: expiresAt.toISOString() };
}
