import { randomUUID } from 'node:crypto';
import type { CheckoutRequest, QpayCheckout } from '@tunes/shared/billing';
import { PAYMENT_CURRENCY } from '@tunes/shared/constants';
import { API_ERROR_CODES } from '@tunes/shared/error-codes';
import type { CheckoutResponse } from '@tunes/shared/premium';
import {
  ALREADY_SUBSCRIBED_CODE,
  ALREADY_SUBSCRIBED_MESSAGE,
  PAYMENT_GATEWAY_ERROR_CODE,
  PREMIUM_OFFERS,
} from '@tunes/shared/premium-rules';
import type { Deps } from '../../deps.js';
import { AppError, badRequest, conflict, unauthorized } from '../../lib/errors.js';
import { LIMITS } from '../../lib/limits.js';
import { enforce } from '../../lib/throttle.js';
import { findCompany } from '../ebarimt/company-receipt.js';
import { offerForPurchase, withOffer } from '../offers/purchase.js';
import { releaseOffer } from '../offers/redemption.js';
import { GatewayError } from '../providers/exchange.js';
import { type PaymentLogEntry, subscriberName, writePaymentLog } from '../providers/payment-log.js';
import { hasActiveSubscription } from '../subscriptions/queries.js';
import { findPlanByCode } from './plans.js';
import { openQpayPayment } from './qpay-payments.js';

/** product.md §4: the invoice id is a random UUID plus the plan code. */
export function newInvoiceId(merchantCode: string): string {
  return `${randomUUID()}_${merchantCode}`;
}

export const returnUrl = (publicUrl: string, invoiceId: string) =>
  `${publicUrl}/api/payments/return?${new URLSearchParams({ invoiceId }).toString()}`;
export const callbackUrl = (publicUrl: string) => `${publicUrl}/api/payments/callback`;

export type CheckoutDeps = Pick<
  Deps,
  'db' | 'clock' | 'config' | 'throttle' | 'paymentGateway' | 'qpay' | 'ebarimt' | 'reportError'
>;

/**
 * `POST /api/payments/checkout`: a card payment (the gateway page) or a QPay one (QR and bank
 * links), for a citizen's or a company's e-barimt.
 */
export function checkout(
  deps: CheckoutDeps,
  userId: string,
  request: CheckoutRequest,
): Promise<CheckoutResponse | QpayCheckout> {
  return request.method === 'qpay'
    ? startQpayCheckout(deps, userId, request)
    : startCheckout(deps, userId, request);
}

/**
 * What every checkout does first (product.md §4 plan purchase): checks the plan and the buyer,
 * looks up the company of a company e-barimt, and makes the invoice at the plan's database Cost.
 */
export async function openPurchaseInvoice(
  deps: CheckoutDeps,
  userId: string,
  {
    MerchantCode: merchantCode,
    saveCard = true,
    ebarimtRegistry,
    method = 'card',
    OfferCode,
  }: CheckoutRequest,
) {
  // A production site that opted out of payments (ALLOW_NO_PAYMENTS) sells nothing.
  if (!deps.config.paymentsEnabled) {
    throw new AppError(
      503,
      API_ERROR_CODES.paymentsUnavailable,
      'Payments are not available on this site at the moment.',
    );
  }
  if (method === 'qpay' && !deps.config.qpayEnabled) {
    throw new AppError(
      503,
      API_ERROR_CODES.qpayUnavailable,
      'QPay is not available on this site at the moment.',
    );
  }
  await enforce(deps.throttle, `checkout:${userId}`, LIMITS.checkoutsPerUser);
  const { db } = deps;
  const plan = await findPlanByCode(deps, merchantCode);
  if (!plan) throw badRequest(`There is no plan with the code ${merchantCode}.`, 'MerchantCode');
  if (plan.currency !== PAYMENT_CURRENCY) {
    throw badRequest(`Plans in ${plan.currency} cannot be bought here; payments are in MNT.`, 'MerchantCode');
  }
  if (!(PREMIUM_OFFERS as readonly string[]).includes(plan.offer)) {
    throw badRequest('This plan is not sold on the site.', 'MerchantCode');
  }
  const user = await db
    .selectFrom('users')
    .select(['id', 'first_name', 'last_name', 'username', 'phone_number', 'primary_email'])
    .where('id', '=', userId)
    .executeTakeFirst();
  if (!user) throw unauthorized('The account no longer exists.');
  const now = deps.clock.now();
  if (await hasActiveSubscription(db, userId, now)) {
    throw conflict(ALREADY_SUBSCRIBED_MESSAGE, ALREADY_SUBSCRIBED_CODE);
  }
  // An offer code (modules/offers): checked before anything is written, its place taken with the invoice.
  const offer = OfferCode ? await offerForPurchase(db, userId, OfferCode, plan, now) : null;
  const company = ebarimtRegistry
    ? await findCompany(deps, userId, ebarimtRegistry, 'ebarimtRegistry')
    : null;

  const invoiceId = newInvoiceId(plan.merchant_code);
  const discount = offer?.discount ?? 0;
  const amount = plan.cost - discount;
  const insert = (trx: typeof db, redemptionId: string | null) =>
    trx
      .insertInto('payment_invoices')
      .values({
        invoice_id: invoiceId,
        user_id: userId,
        package_id: plan.id,
        amount,
        discount,
        offer_redemption_id: redemptionId,
        currency: plan.currency,
        created_at: now,
        kind: 'purchase',
        method,
        // A QPay payment keeps no card.
        save_card: method === 'card' && saveCard,
        ebarimt_registry: company?.registry ?? null,
        ebarimt_tin: company?.tin ?? null,
        ebarimt_company: company?.name ?? null,
      })
      .execute();
  if (offer) {
    await withOffer(db, offer, { userId, invoiceId, now }, async (trx, redemptionId) => {
      await insert(trx, redemptionId);
    });
  } else await insert(db, null);

  const party = {
    orderNumber: invoiceId,
    userId,
    subscriberName: subscriberName(user),
    packageName: plan.name_en,
    purchasePrice: amount,
  };
  const log = (entry: Omit<Parameters<typeof writePaymentLog>[1], keyof typeof party>) =>
    writePaymentLog(deps, { ...party, ...entry });
  return { invoiceId, plan, amount, user, saveCard, log };
}

/** A provider that could not start the payment: the invoice fails, the shopper gets a 502. */
export async function failedStart(
  deps: Pick<CheckoutDeps, 'db' | 'clock' | 'reportError'>,
  invoiceId: string,
  error: GatewayError,
  log: (
    entry: Omit<
      PaymentLogEntry,
      'orderNumber' | 'userId' | 'subscriberName' | 'packageName' | 'purchasePrice'
    >,
  ) => Promise<void>,
): Promise<never> {
  await deps.db
    .updateTable('payment_invoices')
    .set({ status: 'failed', settled_at: deps.clock.now() })
    .where('invoice_id', '=', invoiceId)
    .execute();
  await releaseOffer(deps.db, invoiceId, deps.clock.now());
  await log({
    currentProcess: 'checkout',
    type: 'error',
    message: error.message,
    request: error.request,
    response: error.response,
  });
  deps.reportError(error, 'payment start failed');
  throw new AppError(
    502,
    PAYMENT_GATEWAY_ERROR_CODE,
    'The payment gateway could not start the payment. Please try again later.',
  );
}

/**
 * Starts a card payment for a plan: makes the invoice, asks the provider for a payment token,
 * logs the session as `created` and answers the gateway page to send the shopper to.
 */
export async function startCheckout(
  deps: CheckoutDeps,
  userId: string,
  request: CheckoutRequest,
): Promise<CheckoutResponse> {
  const { invoiceId, plan, amount, user, saveCard, log } = await openPurchaseInvoice(deps, userId, {
    ...request,
    method: 'card',
  });
  try {
    const exchange = await deps.paymentGateway.requestToken({
      amount,
      description: plan.name_en,
      invoice_id: invoiceId,
      redirect_url: returnUrl(deps.config.PUBLIC_URL, invoiceId),
      callback_url: callbackUrl(deps.config.PUBLIC_URL),
      save_card: saveCard,
      ...(user.phone_number ? { phone: user.phone_number } : {}),
      ...(user.primary_email ? { email: user.primary_email } : {}),
    });
    await deps.db
      .updateTable('payment_invoices')
      .set({ provider_token: exchange.result.token })
      .where('invoice_id', '=', invoiceId)
      .execute();
    await log({
      currentProcess: 'checkout',
      type: 'info',
      message: 'created',
      request: exchange.request,
      response: exchange.response,
    });
    return { url: deps.paymentGateway.paymentPageUrl(exchange.result.token), invoiceId };
  } catch (error) {
    if (!(error instanceof GatewayError)) throw error;
    return failedStart(deps, invoiceId, error, log);
  }
}

/** Starts a QPay payment for a plan: the invoice, then its QPay invoice (QR and bank links). */
export async function startQpayCheckout(
  deps: CheckoutDeps,
  userId: string,
  request: CheckoutRequest,
): Promise<QpayCheckout> {
  const { invoiceId, log } = await openPurchaseInvoice(deps, userId, { ...request, method: 'qpay' });
  try {
    return await openQpayPayment(deps, invoiceId);
  } catch (error) {
    if (!(error instanceof GatewayError)) throw error;
    return failedStart(deps, invoiceId, error, log);
  }
}
