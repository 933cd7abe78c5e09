import { API_ERROR_CODES } from '@tunes/shared/error-codes';
import type { Deps } from '../../deps.js';
import { conflict, notFound, tooManyRequests } from '../../lib/errors.js';
import { LIMITS } from '../../lib/limits.js';
import { revokeAllForUser } from '../accounts/tokens.js';
import { billingMessages } from '../billing/messages.js';
import { notifyOnce } from '../premium/notices.js';
import { audit } from './audit.js';
import { type SupportDeps, userRow } from './support-views.js';
import './tables.js';

/**
 * Sends the receipt link of a paid invoice again, by e-mail or SMS as billing messages go; each
 * operator at most 5 times an hour per invoice (lib/limits.ts), a refusal audited.
 */
export async function resendReceipt(
  deps: Pick<Deps, 'db' | 'clock' | 'config' | 'throttle'>,
  operatorId: string,
  userId: string,
  invoiceId: string,
) {
  const invoice = await deps.db
    .selectFrom('payment_invoices as i')
    .innerJoin('packages as p', 'p.id', 'i.package_id')
    .select(['i.status', 'i.amount', 'i.currency', 'p.name_en', 'p.name_mn'])
    .where('i.invoice_id', '=', invoiceId)
    .where('i.user_id', '=', userId)
    .executeTakeFirst();
  if (!invoice) throw notFound('No such payment of this listener.');
  if (invoice.status !== 'paid')
    throw conflict('Only a paid invoice has a receipt.', API_ERROR_CODES.notPaid);
  const now = deps.clock.now();
  const limit = LIMITS.receiptResendsPerInvoice;
  const taken = await deps.throttle.take(`receipt-resends:${operatorId}:${invoiceId}`, limit);
  if (!taken.allowed) {
    await audit(deps.db, now, {
      operatorId,
      action: 'user.receipt.resend.refused',
      targetType: 'payment',
      targetId: invoiceId,
      after: { cap: limit.limit, windowSeconds: limit.windowSeconds, userId },
    });
    throw tooManyRequests(taken.retryAfterSeconds, limit.message);
  }
  const link = `${deps.config.PUBLIC_URL}/receipts/${encodeURIComponent(invoiceId)}`;
  const sentTo: string[] = [];
  await notifyOnce(
    deps,
    {
      key: `receipt-resend:${invoiceId}:${now.getTime()}:${Math.random().toString(36).slice(2)}`,
      userId,
      link,
      text: (lang) =>
        billingMessages.receipt(lang, lang === 'mn' ? invoice.name_mn : invoice.name_en, invoice, link),
    },
    undefined,
    async (trx, to) => {
      sentTo.push(to);
      await audit(trx, now, {
        operatorId,
        action: 'user.receipt.resend',
        targetType: 'payment',
        targetId: invoiceId,
        after: { to, userId },
      });
    },
  );
  if (sentTo.length === 0)
    throw conflict('The listener has no phone number or e-mail address.', API_ERROR_CODES.noAddress);
  return { sentTo };
}

/** Signs the listener out everywhere: every refresh token family is revoked, its access tokens refused. */
export async function endUserSessions(
  deps: SupportDeps & Pick<Deps, 'accessTokens' | 'revokedSessions'>,
  operatorId: string,
  userId: string,
) {
  if (!(await userRow(deps, userId))) throw notFound('No such listener.');
  const now = deps.clock.now();
  return deps.db.transaction().execute(async (trx) => {
    const live = await trx
      .selectFrom('refresh_tokens')
      .select((eb) => eb.fn.count<string>('family_id').distinct().as('count'))
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    await revokeAllForUser({ ...deps, db: trx }, userId);
    const ended = Number(live?.count ?? 0);
    await audit(trx, now, {
      operatorId,
      action: 'user.sessions.end',
      targetType: 'user',
      targetId: userId,
      after: { ended },
    });
    return { ended };
  });
}
