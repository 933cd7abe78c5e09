import type { PlanChangeResponse } from '@tunes/shared/billing';
import { API_ERROR_CODES } from '@tunes/shared/error-codes';
import type { Deps } from '../../deps.js';
import { AppError, conflict } from '../../lib/errors.js';
import { LIMITS } from '../../lib/limits.js';
import type { ErrorLog } from '../../lib/logging.js';
import { enforce } from '../../lib/throttle.js';
import { activateInvoice } from '../premium/activation-once.js';
import { takeCapture } from '../premium/capture-once.js';
import { newInvoiceId } from '../premium/checkout.js';
import { notifyOnce } from '../premium/notices.js';
import { cardToken } from '../premium/saved-cards.js';
import { GatewayError } from '../providers/exchange.js';
import { writePaymentLog } from '../providers/payment-log.js';
import { trialMessages, trialPlanOf } from '../trials/messages.js';
import { invoicePaymentPage } from './invoice-payment-page.js';
import { billingMessages } from './messages.js';
import { quotePlanChange, type Subscription } from './plan-change-quote.js';

export type PlanChangeDeps = Pick<
  Deps,
  'db' | 'clock' | 'config' | 'throttle' | 'paymentGateway' | 'qpay' | 'reportError'
>;

/**
 * `POST /api/subscriptions/{id}/change` (product.md §12). An upgrade holds from now and costs
 * the prorated difference, charged once (one invoice per subscription, period and plan, its
 * charge keyed by the invoice) to the saved card, or paid on the gateway page without one. A
 * downgrade waits for the next renewal; members beyond the new plan's seats are told now.
 */
export async function changePlan(
  deps: PlanChangeDeps,
  userId: string,
  subscriptionId: string,
  merchantCode: string,
  log?: ErrorLog,
): Promise<PlanChangeResponse> {
  await enforce(deps.throttle, `checkout:${userId}`, LIMITS.checkoutsPerUser);
  const now = deps.clock.now();
  const quote = await quotePlanChange(deps, userId, subscriptionId, merchantCode);
  const { subscription, target } = quote;
  if (quote.kind === 'keep') {
    await deps.db
      .updateTable('subscriptions')
      .set({ next_package_id: null, updated_at: now })
      .where('id', '=', subscriptionId)
      .execute();
    return { status: 'scheduled', startsAt: subscription.end_date.toISOString() };
  }
  if (quote.kind === 'downgrade' || quote.invoiceKey === null) {
    return scheduleDowngrade(deps, subscription, target, log);
  }

  const key = quote.invoiceKey;
  await deps.db
    .insertInto('payment_invoices')
    .values({
      invoice_id: newInvoiceId(target.merchant_code),
      user_id: userId,
      package_id: target.id,
      amount: quote.amount,
      discount: quote.discount,
      currency: target.currency,
      created_at: now,
      kind: 'change',
      method: 'card',
      idempotency_key: key,
      subscription_id: subscriptionId,
      period_start: now,
      period_end: subscription.end_date,
    })
    .onConflict((oc) => oc.column('idempotency_key').doNothing())
    .execute();
  const invoice = await deps.db
    .selectFrom('payment_invoices')
    .selectAll()
    .where('idempotency_key', '=', key)
    .executeTakeFirstOrThrow();
  const changed = { status: 'changed' as const, invoiceId: invoice.invoice_id, amount: invoice.amount };
  if (invoice.status === 'paid') return changed;
  const party = {
    orderNumber: invoice.invoice_id,
    userId,
    packageName: target.name_en,
    purchasePrice: invoice.amount,
    currentProcess: 'change' as const,
  };

  const tell = () =>
    notifyOnce(
      deps,
      {
        key: `upgraded:${invoice.invoice_id}`,
        userId,
        text: (lang) =>
          quote.trialEndsAt
            ? trialMessages.planChanged(lang, trialPlanOf(target, lang), quote.trialEndsAt)
            : billingMessages.upgraded(lang, lang === 'mn' ? target.name_mn : target.name_en, {
                amount: invoice.amount,
                currency: invoice.currency,
              }),
      },
      log,
    );
  if (invoice.amount === 0) {
    await activateInvoice(deps, invoice.invoice_id);
    await tell();
    return changed;
  }

  const card = await cardToken(deps, userId);
  if (card) {
    const attempt = invoice.charge_attempts + 1;
    try {
      const charge = await deps.paymentGateway.chargeCard({
        cardToken: card.provider_token,
        invoiceId: invoice.invoice_id,
        attempt,
        amount: invoice.amount,
        currency: invoice.currency,
      });
      await deps.db
        .updateTable('payment_invoices')
        .set({ charge_attempts: attempt, card_brand: card.brand, card_last4: card.last4 })
        .where('invoice_id', '=', invoice.invoice_id)
        .execute();
      await writePaymentLog(deps, {
        ...party,
        type: charge.result.status === 'paid' ? 'info' : 'warning',
        message: `upgrade charge attempt ${attempt}: ${charge.result.status}`,
        request: charge.request,
        response: charge.response,
      });
      if (charge.result.status === 'paid') {
        const { amount, currency, reference = `charge:${attempt}` } = charge.result;
        const taken = await takeCapture(
          deps,
          invoice.invoice_id,
          { method: 'card', reference, amount, currency },
          'change',
          log,
        );
        if (taken.outcome !== 'surplus') {
          await tell();
          return changed;
        }
        throw conflict(
          'This plan change could not be applied; the charge was refunded.',
          API_ERROR_CODES.changeRefunded,
        );
      }
    } catch (error) {
      if (!(error instanceof GatewayError)) throw error;
      await writePaymentLog(deps, {
        ...party,
        type: 'error',
        message: error.message,
        request: error.request,
      });
    }
  }
  try {
    const url = await invoicePaymentPage(deps, invoice.invoice_id);
    return { status: 'payment_required', url, invoiceId: invoice.invoice_id, amount: invoice.amount };
  } catch (error) {
    if (!(error instanceof GatewayError)) throw error;
    deps.reportError(error, 'upgrade payment page failed');
    throw new AppError(
      502,
      API_ERROR_CODES.paymentGatewayError,
      'The payment gateway could not start the payment. Please try again later.',
    );
  }
}

async function scheduleDowngrade(
  deps: PlanChangeDeps,
  subscription: Subscription,
  target: { id: number; name_en: string; name_mn: string; max_shared_users: number; allow_share: boolean },
  log?: ErrorLog,
): Promise<PlanChangeResponse> {
  const now = deps.clock.now();
  await deps.db
    .updateTable('subscriptions')
    .set({ next_package_id: target.id, updated_at: now })
    .where('id', '=', subscription.id)
    .execute();
  const startsAt = subscription.end_date;
  const seats = target.allow_share ? target.max_shared_users : 0;
  const losing = await deps.db
    .selectFrom('subscription_members')
    .select('user_id')
    .where('subscription_id', '=', subscription.id)
    .orderBy('joined_at', 'asc')
    .orderBy('user_id', 'asc')
    .offset(seats)
    .limit(1000)
    .execute();
  const period = startsAt.toISOString();
  for (const member of losing) {
    await notifyOnce(
      deps,
      {
        key: `seat-ending:${subscription.id}:${period}:${member.user_id}`,
        userId: member.user_id,
        text: (lang) => billingMessages.seatEnding(lang, startsAt),
      },
      log,
    );
  }
  await notifyOnce(
    deps,
    {
      key: `downgrade:${subscription.id}:${period}:${target.id}`,
      userId: subscription.owner_id,
      text: (lang) =>
        billingMessages.downgradeScheduled(lang, lang === 'mn' ? target.name_mn : target.name_en, startsAt),
    },
    log,
  );
  return { status: 'scheduled', startsAt: startsAt.toISOString() };
}
