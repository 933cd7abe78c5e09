import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayError } from '../../src/modules/providers/exchange.js';
import type { EbarimtGateway } from '../../src/modules/providers/posapi.js';
import {
  LOTTERY_PATTERN,
  posReceiptIssuedSchema,
  posReceiptNotIssuedSchema,
  posReceiptRequestSchema,
  posRefusalSchema,
  posVoidRequestSchema,
} from '../../src/modules/providers/posapi-contract.js';
import {
  taxpayerInfoAnswerSchema,
  taxpayerInfoQuerySchema,
  tinInfoAnswerSchema,
  tinInfoQuerySchema,
} from '../../src/modules/providers/posapi-taxpayer-contract.js';
import { createProviders } from '../../src/modules/providers/providers.js';
import type { JsonRequest } from '../../src/modules/providers/transport.js';
import { PLAN_CODES, withPlans } from '../helpers/factories.js';
import { subscriber } from '../helpers/premium.js';
import { runDue } from '../helpers/qpay-factories.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * PosAPI 3.0 as the tax authority describes it (providers/posapi-contract.ts, from ITC's OpenAPI
 * and user manual): the adapter's calls and the sandbox's answers match it, the sandbox refuses
 * each documented limit in PosAPI's own shape, and answers the documented statuses on demand.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await withPlans(t);
});
afterAll(async () => {
  await t.close();
});

/** The product's PosAPI adapter, recording each call and the answer as it came. */
function recordedPosApi(): { posapi: EbarimtGateway; calls: { request: JsonRequest; answer: unknown }[] } {
  const calls: { request: JsonRequest; answer: unknown }[] = [];
  const { ebarimt } = createProviders(t.deps, async (request) => {
    const answer = await t.deps.transport.call(request);
    calls.push({ request, answer: answer.body });
    return answer;
  });
  return { posapi: ebarimt, calls };
}

const receiptCall = (method: 'POST' | 'DELETE', body: unknown) =>
  t.app.inject({ method, url: '/sandbox-ebarimt/rest/receipt', payload: body as object });

async function orderFaults(body: Record<string, unknown>) {
  const ordered = await t.app.inject({ method: 'POST', url: '/sandbox-ebarimt/test/outages', payload: body });
  expect(ordered.statusCode, ordered.body).toBe(204);
}

const MERCHANT = '37900846788';
const COMPANY = '10001234567';
let suffix = 0;

/** A receipt as the adapter builds one: one VAT_ABLE line of `total`, VAT 10/110, paid by card. */
function receiptBody(total = 17_900) {
  const vat = Math.round((total / 11) * 100) / 100;
  suffix += 1;
  return {
    branchNo: '001',
    totalAmount: total,
    totalVAT: vat,
    totalCityTax: 0,
    districtCode: '2501',
    merchantTin: MERCHANT,
    posNo: '001',
    customerTin: null as string | null,
    consumerNo: null as string | null,
    type: 'B2C_RECEIPT',
    billIdSuffix: String(suffix).padStart(6, '0'),
    receipts: [
      {
        totalAmount: total,
        taxType: 'VAT_ABLE',
        merchantTin: MERCHANT,
        totalVAT: vat,
        totalCityTax: 0,
        items: [
          {
            name: 'Tunes Гэр бүл',
            barCode: null as string | null,
            barCodeType: 'UNDEFINED',
            classificationCode: '8413100',
            taxProductCode: null as string | null,
            measureUnit: 'ш',
            qty: 1,
            unitPrice: total,
            totalAmount: total,
            totalVAT: vat,
            totalCityTax: 0,
          },
        ],
      },
    ],
    payments: [
      { code: 'PAYMENT_CARD', status: 'PAID', paidAmount: total } as {
        code: string;
        status: string;
        paidAmount: number;
        data?: unknown;
      },
    ],
  };
}
type ReceiptBody = ReturnType<typeof receiptBody>;
const item = (body: ReceiptBody) => body.receipts[0]?.items[0] as ReceiptBody['receipts'][0]['items'][0];
const changed = (change: (body: ReceiptBody) => void) => () => {
  const body = receiptBody();
  change(body);
  return body;
};

describe('the adapter speaks PosAPI 3.0 as it is described', () => {
  it('a citizen and a company receipt, their void and the company lookup validate against the description, and so do the answers', async () => {
    const { posapi, calls } = recordedPosApi();
    const citizen = await posapi.issueReceipt({
      totalAmount: 17_900,
      customerTin: null,
      itemName: 'Tunes Гэр бүл',
      payment: 'PAYMENT_CARD',
      billIdSuffix: '482113',
    });
    const company = await posapi.issueReceipt({
      totalAmount: 6900,
      customerTin: COMPANY,
      itemName: 'Tunes Premium',
      payment: 'PAYMENT_CARD',
      billIdSuffix: '482114',
    });
    await posapi.voidReceipt(citizen.result.id, citizen.result.date);
    const found = await posapi.findCompany('1234567');
    expect(found.result).toEqual({ tin: COMPANY, name: 'Жишээ Технологи ХХК' });

    const [issueCitizen, issueCompany, voided, tin, info] = calls;
    for (const issued of [issueCitizen, issueCompany]) {
      expect(issued?.request.method).toBe('POST');
      expect(posReceiptRequestSchema.strict().safeParse(issued?.request.body).error).toBeUndefined();
      expect(posReceiptIssuedSchema.safeParse(issued?.answer).error).toBeUndefined();
    }
    expect(issueCitizen?.request.body).toMatchObject({ type: 'B2C_RECEIPT', customerTin: null });
    expect(issueCompany?.request.body).toMatchObject({ type: 'B2B_RECEIPT', customerTin: COMPANY });
    // A citizen receipt carries a lottery number; a company one none.
    expect(citizen.result.lottery).toMatch(LOTTERY_PATTERN);
    expect(company.result.lottery).toBeNull();
    expect(voided?.request.method).toBe('DELETE');
    expect(posVoidRequestSchema.strict().safeParse(voided?.request.body).error).toBeUndefined();
    // "Response: NONE".
    expect(voided?.answer).toBeNull();
    const query = (request?: JsonRequest) => Object.fromEntries(new URL(request?.url ?? '').searchParams);
    expect(tinInfoQuerySchema.strict().safeParse(query(tin?.request)).success).toBe(true);
    expect(tinInfoAnswerSchema.safeParse(tin?.answer).error).toBeUndefined();
    expect(taxpayerInfoQuerySchema.strict().safeParse(query(info?.request)).success).toBe(true);
    expect(taxpayerInfoAnswerSchema.safeParse(info?.answer).error).toBeUndefined();
  });

  it('what the adapter hands the payment log never holds the lottery number or the QR data', async () => {
    const { posapi } = recordedPosApi();
    const issued = await posapi.issueReceipt({
      totalAmount: 9900,
      customerTin: null,
      itemName: 'Tunes Duo',
      payment: 'PAYMENT_CARD',
      billIdSuffix: '000777',
    });
    const logged = JSON.stringify([issued.request, issued.response]);
    expect(logged).not.toContain(issued.result.lottery ?? '-');
    expect(logged).not.toContain(issued.result.qrData);
    expect(issued.response).toMatchObject({ id: issued.result.id, status: 'SUCCESS' });
  });
});

describe('the sandbox refuses each documented limit with 400 { status: "ERROR", message }', () => {
  const refusals: [string, () => unknown][] = [
    ['branchNo of 2 digits', changed((b) => Object.assign(b, { branchNo: '01' }))],
    ['districtCode of 3 digits', changed((b) => Object.assign(b, { districtCode: '251' }))],
    ['a merchantTin of 10 digits', changed((b) => Object.assign(b, { merchantTin: '3790084678' }))],
    ['a merchantTin of 15 digits', changed((b) => Object.assign(b, { merchantTin: '379008467880000' }))],
    ['an empty posNo', changed((b) => Object.assign(b, { posNo: '' }))],
    ['no billIdSuffix', changed((b) => Object.assign(b, { billIdSuffix: undefined }))],
    ['a type outside the four', changed((b) => Object.assign(b, { type: 'B2C_' }))],
    ['a B2B receipt without customerTin', changed((b) => Object.assign(b, { type: 'B2B_RECEIPT' }))],
    ['a B2C receipt naming a customerTin', changed((b) => Object.assign(b, { customerTin: COMPANY }))],
    ['a consumerNo of 7 digits', changed((b) => Object.assign(b, { consumerNo: '1003807' }))],
    [
      'a consumerNo on a B2B receipt',
      changed((b) => Object.assign(b, { type: 'B2B_RECEIPT', customerTin: COMPANY, consumerNo: '10038071' })),
    ],
    ['an inactiveId that is not a bill id', changed((b) => Object.assign(b, { inactiveId: '123' }))],
    ['a reportMonth on a B2C receipt', changed((b) => Object.assign(b, { reportMonth: '2026-11-01' }))],
    ['no sub-receipts', changed((b) => Object.assign(b, { receipts: [] }))],
    ['a sub-receipt without items', changed((b) => Object.assign(b.receipts[0] ?? {}, { items: [] }))],
    ['a taxType outside the list', changed((b) => Object.assign(b.receipts[0] ?? {}, { taxType: 'VAT_10' }))],
    [
      'a classificationCode of 6 digits',
      changed((b) => Object.assign(item(b), { classificationCode: '841310' })),
    ],
    ['a quantity of 0', changed((b) => Object.assign(item(b), { qty: 0 }))],
    ['a barCodeType outside the list', changed((b) => Object.assign(item(b), { barCodeType: 'EAN' }))],
    ['a GS1 item without its bar code', changed((b) => Object.assign(item(b), { barCodeType: 'GS1' }))],
    [
      'a VAT_FREE item without a 3-digit taxProductCode',
      changed((b) => {
        Object.assign(b, { totalVAT: 0 });
        Object.assign(b.receipts[0] ?? {}, { taxType: 'VAT_FREE', totalVAT: 0 });
        Object.assign(item(b), { totalVAT: 0 });
      }),
    ],
    [
      'VAT other than 10/110 of a VAT_ABLE line',
      changed((b) => {
        Object.assign(b, { totalVAT: 1790 });
        Object.assign(b.receipts[0] ?? {}, { totalVAT: 1790 });
        Object.assign(item(b), { totalVAT: 1790 });
      }),
    ],
    [
      'a sub-receipt total other than its items’ sum',
      changed((b) => Object.assign(b.receipts[0] ?? {}, { totalAmount: 18_000 })),
    ],
    ['a batch total other than its receipts’ sum', changed((b) => Object.assign(b, { totalAmount: 18_000 }))],
    ['a batch VAT other than its receipts’ sum', changed((b) => Object.assign(b, { totalVAT: 0 }))],
    [
      'a payment code outside CASH and PAYMENT_CARD',
      changed((b) => Object.assign(b.payments[0] ?? {}, { code: 'QPAY' })),
    ],
    [
      'a payment status outside the list',
      changed((b) => Object.assign(b.payments[0] ?? {}, { status: 'DONE' })),
    ],
    [
      'card payment data without its rrn',
      changed((b) =>
        Object.assign(b.payments[0] ?? {}, {
          data: { terminalID: '1', maskedCardNumber: '4242XX4242', easy: false },
        }),
      ),
    ],
  ];

  it.each(refusals)('%s', async (_name, make) => {
    const body = make();
    expect(posReceiptRequestSchema.safeParse(body).success).toBe(false);
    const before = await t.db.selectFrom('sandbox_ebarimt_receipts').select('id').execute();
    const response = await receiptCall('POST', body);
    expect(response.statusCode, response.body).toBe(400);
    const refusal = response.json();
    expect(Object.keys(refusal).sort()).toEqual(['message', 'status']);
    expect(posRefusalSchema.parse(refusal).status).toBe('ERROR');
    expect(await t.db.selectFrom('sandbox_ebarimt_receipts').select('id').execute()).toHaveLength(
      before.length,
    );
  });

  it("accepts the description's own B2C_RECEIPT and B2B_RECEIPT examples (spec/vendor/PosAPI.yaml)", async () => {
    const seller = '110718991986';
    const line = { barCodeType: 'GS1', classificationCode: '2349010', measureUnit: 'senlovesfits', qty: 1 };
    const b2c = {
      branchNo: '001',
      totalAmount: 5600,
      totalVAT: 500,
      totalCityTax: 100,
      districtCode: '2501',
      merchantTin: seller,
      posNo: '001',
      customerTin: null,
      consumerNo: '10038071',
      type: 'B2C_RECEIPT',
      inactiveId: null,
      reportMonth: null,
      billIdSuffix: '01',
      receipts: [
        {
          totalAmount: 5600,
          taxType: 'VAT_ABLE',
          merchantTin: seller,
          customerTin: null,
          totalVAT: 500,
          totalCityTax: 100,
          invoiceId: null,
          bankAccountNo: '',
          iBan: '',
          items: [
            { ...line, name: 'Талх', barCode: '19059010880001', taxProductCode: null, unitPrice: 5000 },
          ].map((row) => ({ ...row, totalVAT: 500, totalCityTax: 100, totalAmount: 5600 })),
        },
      ],
      payments: [{ code: 'CASH', status: 'PAID', paidAmount: 5600 }],
    };
    const b2b = {
      ...b2c,
      totalAmount: 5000,
      totalVAT: 0,
      totalCityTax: 0,
      customerTin: seller,
      consumerNo: '',
      type: 'B2B_RECEIPT',
      invoiceId: null,
      billIdSuffix: '02',
      receipts: [
        {
          totalAmount: 5000,
          taxType: 'VAT_FREE',
          merchantTin: seller,
          customerTin: null,
          totalVAT: 0,
          totalCityTax: 0,
          bankAccountNo: null,
          iBan: null,
          items: [
            { ...line, name: ':Дээж сүү', barCode: '8654000102657', taxProductCode: '320', unitPrice: 5000 },
          ].map((row) => ({ ...row, totalVAT: 0, totalCityTax: 0, totalAmount: 5000 })),
        },
      ],
      payments: [{ code: 'CASH', status: 'PAID', paidAmount: 5000 }],
    };
    for (const example of [b2c, b2b]) {
      expect(posReceiptRequestSchema.safeParse(example).error).toBeUndefined();
      const response = await receiptCall('POST', example);
      expect(response.statusCode, response.body).toBe(200);
      expect(posReceiptIssuedSchema.parse(response.json()).status).toBe('SUCCESS');
    }
  });

  it('issues the same receipt within the limits', async () => {
    const response = await receiptCall('POST', receiptBody());
    expect(response.statusCode, response.body).toBe(200);
    expect(posReceiptIssuedSchema.parse(response.json()).lottery).toMatch(LOTTERY_PATTERN);
  });

  it('a void needs the 33-digit bill id and the "yyyy-MM-dd HH:mm:ss" date; an unknown one is refused', async () => {
    const issued = posReceiptIssuedSchema.parse((await receiptCall('POST', receiptBody())).json());
    for (const body of [
      { id: issued.id.slice(1), date: issued.date },
      { id: issued.id, date: issued.date.replace(' ', 'T') },
      { id: issued.id },
    ]) {
      const refused = await receiptCall('DELETE', body);
      expect(refused.statusCode, JSON.stringify(body)).toBe(400);
      expect(posRefusalSchema.parse(refused.json()).message).toBeTruthy();
    }
    const unknown = await receiptCall('DELETE', { id: '9'.repeat(33), date: issued.date });
    expect(unknown.statusCode).toBe(404);
    expect(posRefusalSchema.safeParse(unknown.json()).success).toBe(true);
    const voided = await receiptCall('DELETE', { id: issued.id, date: issued.date });
    expect(voided.statusCode).toBe(200);
    expect(voided.body).toBe('');
  });

  it('the information service refuses a TIN that is not 11–14 digits, in its own shape', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/sandbox-ebarimt/api/info/check/getInfo?tin=12ab',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ status: 400, data: null, msg: expect.stringContaining('tin') });
  });
});

describe('the documented answers, on demand', () => {
  it('payments short of the total are answered PAYMENT, and nothing is issued', async () => {
    const body = receiptBody();
    body.payments = [{ code: 'PAYMENT_CARD', status: 'PAID', paidAmount: 10_000 }];
    const response = await receiptCall('POST', body);
    expect(response.statusCode).toBe(200);
    expect(posReceiptNotIssuedSchema.parse(response.json()).status).toBe('PAYMENT');
  });

  it('ordered ERROR, PAYMENT and outage answers each fail one issue, and the adapter reports each', async () => {
    const { posapi } = recordedPosApi();
    const ask = () =>
      posapi
        .issueReceipt({
          totalAmount: 6900,
          customerTin: null,
          itemName: 'Tunes Premium',
          payment: 'PAYMENT_CARD',
          billIdSuffix: '300300',
        })
        .catch((error: unknown) => error);
    for (const [kind, reported] of [
      ['error', /not issued \(ERROR: /],
      ['payment', /not issued \(PAYMENT: /],
      ['unavailable', /answered 503/],
    ] as const) {
      await orderFaults({ receipts: 1, kind });
      const failed = await ask();
      expect(failed, kind).toBeInstanceOf(GatewayError);
      expect((failed as GatewayError).message).toMatch(reported);
    }
    expect(await ask()).toMatchObject({ result: { id: expect.stringMatching(/^\d{33}$/) } });
  });

  it('a slow PosAPI answers after the ordered delay', async () => {
    await orderFaults({ receipts: 1, kind: 'slow', delayMs: 300 });
    const started = Date.now();
    const response = await receiptCall('POST', receiptBody());
    expect(response.statusCode).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
  });

  it('a receipt refused with ERROR is retried by the job until PosAPI issues it', async () => {
    const { invoiceId } = await subscriber(t, PLAN_CODES.premium);
    await orderFaults({ receipts: 1, kind: 'error' });
    await runDue(t);
    const row = () =>
      t.db
        .selectFrom('ebarimt_receipts')
        .selectAll()
        .where('invoice_id', '=', invoiceId)
        .executeTakeFirstOrThrow();
    expect(await row()).toMatchObject({ status: 'pending', bill_id: null, lottery: null });
    expect((await row()).last_error).toMatch(/not issued \(ERROR/);
    t.clock.advance(61_000);
    await runDue(t);
    expect(await row()).toMatchObject({ status: 'issued', last_error: null });
    t.clock.set(Date.now());
  });
});
