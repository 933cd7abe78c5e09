import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runReceiptStep } from '../../src/modules/ebarimt/receipt-once.js';
import { DAY_MS, PLAN_CODES, shopper, siteHeaders, withPlans } from '../helpers/factories.js';
import { ownSubscriptions, subscriber } from '../helpers/premium.js';
import { answerAtBank, qpayCheckout, runDue } from '../helpers/qpay-factories.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await withPlans(t);
});
afterAll(async () => {
  await t.close();
});

const receiptsOf = (invoiceId: string) =>
  t.db
    .selectFrom('ebarimt_receipts')
    .selectAll()
    .where('invoice_id', '=', invoiceId)
    .orderBy('kind')
    .execute();
const taxAuthorityReceipts = (billIds: (string | null | undefined)[]) =>
  t.db
    .selectFrom('sandbox_ebarimt_receipts')
    .selectAll()
    .where('id', 'in', billIds.filter((id): id is string => Boolean(id)).concat(['-']))
    .execute();

async function receipt(headers: Record<string, string>, invoiceId: string) {
  const response = await t.app.inject({
    method: 'GET',
    url: `/api/users/me/receipts/${encodeURIComponent(invoiceId)}`,
    headers,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

async function outage(receipts: number) {
  const ordered = await t.app.inject({
    method: 'POST',
    url: '/sandbox-ebarimt/test/outages',
    payload: { receipts },
  });
  expect(ordered.statusCode).toBe(204);
}

describe('e-barimt for every paid invoice', () => {
  it('a card purchase gets a citizen e-barimt whose lottery number and QR are on the receipt only, never in the history', async () => {
    const { headers, invoiceId } = await subscriber(t, PLAN_CODES.family);
    const before = await t.app.inject({ method: 'GET', url: '/api/users/me/payments', headers });
    expect(before.json()[0].receipt).toEqual({ url: expect.any(String), ebarimt: null });

    await runDue(t);
    const history = await t.app.inject({ method: 'GET', url: '/api/users/me/payments', headers });
    const { ebarimt } = history.json()[0].receipt;
    expect(ebarimt).toEqual({ billId: expect.stringMatching(/^\d{33}$/), company: null });
    const detail = await receipt(headers, invoiceId);
    expect(detail.receipt.ebarimt).toEqual({
      ...ebarimt,
      lottery: expect.any(String),
      qrData: expect.any(String),
    });
    expect(detail.receipt.ebarimt.lottery).toMatch(/^[A-Z]{2} \d{8}$/);
    expect(detail.receipt.ebarimt.qrData).toMatch(/^\d+$/);
    // The payment log keeps what PosAPI answered, without them (decision 0033).
    const logged = await t.db
      .selectFrom('payment_logs')
      .select(['response'])
      .where('order_number', '=', invoiceId)
      .where('current_process', '=', 'ebarimt')
      .execute();
    expect(logged).not.toHaveLength(0);
    expect(JSON.stringify(logged)).not.toContain(detail.receipt.ebarimt.lottery);
    expect(JSON.stringify(logged)).not.toContain(detail.receipt.ebarimt.qrData);
    expect(detail.ebarimtQr).toMatch(/^data:image\/png;base64,/);
    expect(detail.companyReceipt).toEqual({ status: 'none', company: null });
    // Without an offer there is no discount to show (decision 0044).
    expect(detail).toMatchObject({ amount: 17_900, discount: 0 });
    const [issued] = await taxAuthorityReceipts([ebarimt.billId]);
    expect(issued).toMatchObject({ type: 'B2C_RECEIPT', merchant_tin: t.config.EBARIMT_MERCHANT_TIN });
    expect(Number(issued?.total_amount)).toBe(17_900);
    expect(Number(issued?.total_vat)).toBeCloseTo(1627.27, 2);
  });

  it('is issued once however many jobs run it at once', async () => {
    const { invoiceId } = await subscriber(t, PLAN_CODES.premium);
    const deps = t.deps;
    const outcomes = await Promise.all(Array.from({ length: 12 }, () => runReceiptStep(deps, invoiceId)));
    expect(outcomes.filter((outcome) => outcome === 'issued')).toHaveLength(1);
    const [row] = await receiptsOf(invoiceId);
    expect(row?.attempts).toBe(1);
    expect(await taxAuthorityReceipts([row?.bill_id])).toHaveLength(1);
    expect(await t.db.selectFrom('sandbox_ebarimt_receipts').select('id').execute()).toHaveLength(
      (await t.db.selectFrom('ebarimt_receipts').select('bill_id').where('bill_id', 'is not', null).execute())
        .length,
    );
  });

  it('gives each receipt its own bill id suffix (PosAPI: unique within a day), kept across retries', async () => {
    const invoices = await Promise.all(Array.from({ length: 6 }, () => subscriber(t, PLAN_CODES.premium)));
    await runDue(t);
    const rows = await t.db
      .selectFrom('ebarimt_receipts')
      .select(['bill_suffix', 'status'])
      .where(
        'invoice_id',
        'in',
        invoices.map((bought) => bought.invoiceId),
      )
      .execute();
    expect(rows).toHaveLength(6);
    const suffixes = rows.map((row) => row.bill_suffix);
    expect(suffixes.every((suffix) => /^\d{6}$/.test(suffix ?? ''))).toBe(true);
    expect(new Set(suffixes).size).toBe(6);
  });

  it('is retried after the tax authority fails, until it is issued, and never twice', async () => {
    const { invoiceId } = await subscriber(t, PLAN_CODES.duo);
    await outage(2);
    await runDue(t);
    let [row] = await receiptsOf(invoiceId);
    expect(row).toMatchObject({ status: 'pending', attempts: 1, bill_id: null });
    expect(row?.last_error).toMatch(/503/);
    // Not due again before its backoff (1 minute), however often the queue runs.
    await runDue(t);
    expect((await receiptsOf(invoiceId))[0]?.attempts).toBe(1);
    t.clock.advance(61_000);
    await runDue(t);
    expect((await receiptsOf(invoiceId))[0]).toMatchObject({ status: 'pending', attempts: 2 });
    t.clock.advance(2 * 60_000 + 1000);
    await runDue(t);
    [row] = await receiptsOf(invoiceId);
    expect(row).toMatchObject({ status: 'issued', attempts: 3, last_error: null });
    expect(await taxAuthorityReceipts([row?.bill_id])).toHaveLength(1);
  });

  it('a renewal charged to the saved card gets its own e-barimt', async () => {
    const { user, period } = await subscriber(t, PLAN_CODES.premium);
    await runDue(t);
    // The saved card renews on the end date.
    t.clock.set(period.end_date.getTime() + 60_000);
    await runDue(t);
    const renewal = await t.db
      .selectFrom('payment_invoices')
      .select(['invoice_id', 'status'])
      .where('user_id', '=', user.id)
      .where('kind', '=', 'renewal')
      .executeTakeFirstOrThrow();
    expect(renewal.status).toBe('paid');
    await runDue(t);
    expect((await receiptsOf(renewal.invoice_id))[0]).toMatchObject({ kind: 'citizen', status: 'issued' });
    const history = await t.app.inject({
      method: 'GET',
      url: '/api/users/me/payments',
      headers: await siteHeaders(t, user.id),
    });
    expect(
      history.json().map((entry: { receipt: { ebarimt: unknown } }) => entry.receipt.ebarimt),
    ).not.toContain(null);
    t.clock.set(Date.now());
  });

  it("a QPay subscriber's renewal link is the site's payment page; paying it with QPay renews and gets an e-barimt", async () => {
    const { user, headers } = await shopper(t);
    const checkout = await qpayCheckout(t, headers, PLAN_CODES.duo);
    await answerAtBank(t, checkout);
    const [period] = await ownSubscriptions(t, user.id);
    if (!period) throw new Error('not activated');
    t.clock.set(period.end_date.getTime() - 3 * DAY_MS + 60_000);
    await runDue(t);
    const outbox = await t.app.inject({ method: 'GET', url: `/dev/outbox?to=${user.phone_number}` });
    const reminder = (outbox.json() as { link: string | null }[]).find((message) => message.link);
    const renewal = await t.db
      .selectFrom('payment_invoices')
      .select('invoice_id')
      .where('user_id', '=', user.id)
      .where('kind', '=', 'renewal')
      .executeTakeFirstOrThrow();
    expect(reminder?.link).toBe(`${t.config.PUBLIC_URL}/pay/${encodeURIComponent(renewal.invoice_id)}`);

    const fresh = await siteHeaders(t, user.id);
    const pay = await t.app.inject({
      method: 'POST',
      url: `/api/payments/${encodeURIComponent(renewal.invoice_id)}/pay`,
      headers: fresh,
      payload: { method: 'qpay' },
    });
    expect(pay.statusCode, pay.body).toBe(200);
    await answerAtBank(t, pay.json(), true, 2);
    const [renewed] = await ownSubscriptions(t, user.id);
    expect(renewed?.end_date.getTime()).toBeGreaterThan(period.end_date.getTime());
    await runDue(t);
    expect((await receiptsOf(renewal.invoice_id))[0]).toMatchObject({ kind: 'citizen', status: 'issued' });
    // At the end date nothing lapses: the period was renewed.
    t.clock.set(period.end_date.getTime() + 60_000);
    await runDue(t);
    expect((await ownSubscriptions(t, user.id))[0]?.is_auto_renew).toBe(true);
    t.clock.set(Date.now());
  });
});

describe('company e-barimt', () => {
  it('a registry number entered at QPay checkout gets a company receipt (no lottery) with the company name', async () => {
    const { user, headers } = await shopper(t);
    const checkout = await qpayCheckout(t, headers, PLAN_CODES.family, { ebarimtRegistry: '1234567' });
    await answerAtBank(t, checkout);
    expect(await ownSubscriptions(t, user.id)).toHaveLength(1);
    await runDue(t);
    const detail = await receipt(headers, checkout.invoiceId);
    expect(detail.method).toBe('qpay');
    expect(detail.receipt.ebarimt).toMatchObject({
      lottery: null,
      company: { registry: '1234567', name: 'Жишээ Технологи ХХК' },
    });
    expect(detail.companyReceipt).toEqual({
      status: 'issued',
      company: { registry: '1234567', name: 'Жишээ Технологи ХХК' },
    });
    const [issued] = await taxAuthorityReceipts([detail.receipt.ebarimt.billId]);
    expect(issued).toMatchObject({ type: 'B2B_RECEIPT', customer_tin: '10001234567', lottery: null });
    expect(await receiptsOf(checkout.invoiceId)).toHaveLength(1);
  });

  it('an unknown registry number is refused at checkout, naming the field', async () => {
    const { headers } = await shopper(t);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/payments/checkout',
      headers,
      payload: { MerchantCode: PLAN_CODES.premium, method: 'qpay', ebarimtRegistry: '7654321' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'unknown_company', field: 'ebarimtRegistry' });
    const malformed = await t.app.inject({
      method: 'POST',
      url: '/api/payments/checkout',
      headers,
      payload: { MerchantCode: PLAN_CODES.premium, ebarimtRegistry: '12ab' },
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ field: 'ebarimtRegistry' });
  });

  it('asked later from the history, it replaces the citizen receipt (voided at the tax authority), once', async () => {
    const { headers, invoiceId } = await subscriber(t, PLAN_CODES.family);
    await runDue(t);
    const [citizen] = await receiptsOf(invoiceId);
    expect(citizen?.status).toBe('issued');
    const lookup = await t.app.inject({ method: 'GET', url: '/api/ebarimt/companies/5317878', headers });
    expect(lookup.json()).toEqual({ registry: '5317878', name: 'Тэнгэр Медиа ХХК' });

    const url = `/api/users/me/receipts/${encodeURIComponent(invoiceId)}/company-receipt`;
    const asked = await t.app.inject({ method: 'POST', url, headers, payload: { registry: '5317878' } });
    expect(asked.statusCode, asked.body).toBe(202);
    expect(asked.json()).toEqual({
      status: 'pending',
      company: { registry: '5317878', name: 'Тэнгэр Медиа ХХК' },
    });
    expect((await receipt(headers, invoiceId)).companyReceipt.status).toBe('pending');
    const again = await t.app.inject({ method: 'POST', url, headers, payload: { registry: '2345678' } });
    expect(again.statusCode).toBe(409);

    await runDue(t);
    const detail = await receipt(headers, invoiceId);
    expect(detail.receipt.ebarimt.company).toEqual({ registry: '5317878', name: 'Тэнгэр Медиа ХХК' });
    expect(detail.receipt.ebarimt.billId).not.toBe(citizen?.bill_id);
    const rows = await receiptsOf(invoiceId);
    expect(rows.map((row) => [row.kind, row.status])).toEqual([
      ['citizen', 'voided'],
      ['company', 'issued'],
    ]);
    // The replaced receipt is printed no more: its lottery number and QR data are gone.
    expect(rows[0]).toMatchObject({ lottery: null, qr_data: null, bill_id: citizen?.bill_id });
    const [voided] = await taxAuthorityReceipts([citizen?.bill_id]);
    expect(voided?.voided).toBe(true);
  });

  it('asked before the citizen receipt was issued, it takes its place: the tax authority sees one receipt', async () => {
    const { headers, invoiceId } = await subscriber(t, PLAN_CODES.premium);
    const url = `/api/users/me/receipts/${encodeURIComponent(invoiceId)}/company-receipt`;
    const asked = await t.app.inject({ method: 'POST', url, headers, payload: { registry: '2345678' } });
    expect(asked.statusCode).toBe(202);
    await runDue(t);
    const rows = await receiptsOf(invoiceId);
    expect(rows.map((row) => [row.kind, row.status])).toEqual([
      ['citizen', 'superseded'],
      ['company', 'issued'],
    ]);
    expect(rows[0]?.bill_id).toBeNull();
  });

  it('is refused for an unpaid or foreign invoice and for an unknown company', async () => {
    const owner = await subscriber(t, PLAN_CODES.premium);
    const other = await shopper(t);
    const url = `/api/users/me/receipts/${encodeURIComponent(owner.invoiceId)}/company-receipt`;
    const foreign = await t.app.inject({
      method: 'POST',
      url,
      headers: other.headers,
      payload: { registry: '1234567' },
    });
    expect(foreign.statusCode).toBe(404);
    const unknown = await t.app.inject({
      method: 'POST',
      url,
      headers: owner.headers,
      payload: { registry: '7654321' },
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ error: 'unknown_company', field: 'registry' });
    const notFound = await t.app.inject({
      method: 'GET',
      url: '/api/ebarimt/companies/7654321',
      headers: owner.headers,
    });
    expect(notFound.statusCode).toBe(400);
    expect(DAY_MS).toBeGreaterThan(0);
  });
});
