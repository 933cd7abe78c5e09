import { expect } from 'vitest';
import { PLAN_CODES, shopper } from './factories.js';
import type { TestApp } from './test-app.js';

/** A checkout through the sandbox gateway as the shopper's browser makes it, and what it stored. */

export function checkout(t: TestApp, headers: Record<string, string>, body: unknown) {
  return t.app.inject({ method: 'POST', url: '/api/payments/checkout', headers, payload: body as object });
}

/** Starts a checkout that must succeed; answers the gateway page URL and the invoice id. */
export async function startCheckout(
  t: TestApp,
  headers: Record<string, string>,
  MerchantCode: string,
  options: { saveCard?: boolean } = {},
) {
  const response = await checkout(t, headers, { MerchantCode, ...options });
  expect(response.statusCode, response.body).toBe(200);
  const body = response.json() as { url: string; invoiceId: string };
  return { ...body, gatewayUrl: new URL(body.url) };
}

/** Opens the sandbox card page like the shopper's browser, answering its hidden form fields. */
export async function openGatewayPage(t: TestApp, gatewayUrl: URL) {
  const page = await t.app.inject({ method: 'GET', url: gatewayUrl.pathname + gatewayUrl.search });
  const hidden = (name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(page.body)?.[1] ?? '';
  return { page, token: hidden('token'), formKey: hidden('form_key') };
}

export function postGatewayForm(t: TestApp, path: 'pay' | 'cancel', form: Record<string, string>) {
  return t.app.inject({
    method: 'POST',
    url: `/sandbox-gateway/payment/${path}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(form).toString(),
  });
}

/** Pays (or declines, or cancels) on the sandbox page; answers where the shopper is sent next. */
export async function payOnGateway(t: TestApp, gatewayUrl: URL, card: string | 'cancel') {
  const { token, formKey } = await openGatewayPage(t, gatewayUrl);
  const response =
    card === 'cancel'
      ? await postGatewayForm(t, 'cancel', { token, form_key: formKey })
      : await postGatewayForm(t, 'pay', {
          token,
          form_key: formKey,
          card_number: card,
          expiry: '12/39',
          cvc: '123',
        });
  expect(response.statusCode, response.body).toBe(303);
  return new URL(String(response.headers.location));
}

/** Follows the gateway's redirect back through the server; answers the site page it sends to. */
export async function returnToShop(t: TestApp, returnUrl: URL) {
  const response = await t.app.inject({ method: 'GET', url: returnUrl.pathname + returnUrl.search });
  expect(response.statusCode, response.body).toBe(303);
  return String(response.headers.location);
}

/** Orders faults of the card gateway's sandbox (apps/sandboxes/src/gateway/faults.ts): `{ call, count, kind }`. */
export async function orderGatewayFaults(t: TestApp, order: Record<string, unknown>) {
  const ordered = await t.app.inject({ method: 'POST', url: '/sandbox-gateway/test/faults', payload: order });
  expect(ordered.statusCode, ordered.body).toBe(204);
}

export const PAID_CARD = '4242 4242 4242 4242';
export const DECLINED_CARD = '4000 0000 0000 0002';
/** Paid at the card form; declined whenever charged later (renewals). */
export const FAILS_LATER_CARD = '4000 0000 0000 0341';

/** A shopper who bought `code` with `card` (saved for renewals unless told); answers their period. */
export async function subscriber(
  t: TestApp,
  code: string = PLAN_CODES.premium,
  card: string = PAID_CARD,
  options: { saveCard?: boolean } = {},
) {
  const buyer = await shopper(t);
  const { gatewayUrl, invoiceId } = await startCheckout(t, buyer.headers, code, options);
  await returnToShop(t, await payOnGateway(t, gatewayUrl, card));
  const [period] = await ownSubscriptions(t, buyer.user.id);
  if (!period) throw new Error('the purchase did not activate');
  return { ...buyer, invoiceId, period };
}

export function ownSubscriptions(t: TestApp, userId: string) {
  return t.db.selectFrom('subscriptions').selectAll().where('owner_id', '=', userId).execute();
}

export function paymentLog(t: TestApp, invoiceId: string) {
  return t.db
    .selectFrom('payment_logs')
    .selectAll()
    .where('order_number', '=', invoiceId)
    .orderBy('id')
    .execute();
}

/** Fills the sandbox's save-card page (nothing is charged); answers where the gateway sends the browser. */
export async function saveCardOnGateway(t: TestApp, pageUrl: URL, card: string, expiry = '12/39') {
  const { page, token, formKey } = await openGatewayPage(t, pageUrl);
  expect(page.statusCode, page.body).toBe(200);
  const response = await t.app.inject({
    method: 'POST',
    url: '/sandbox-gateway/card/save',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({
      token,
      form_key: formKey,
      card_number: card,
      expiry,
      cvc: '123',
    }).toString(),
  });
  expect(response.statusCode, response.body).toBe(303);
  return new URL(String(response.headers.location));
}
