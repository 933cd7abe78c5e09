import { z } from 'zod';

/**
 * PosAPI 3.0 (e-barimt) as the tax authority (ITC) describes it, for the calls our adapter makes
 * (posapi.ts). Derived from the descriptions vendored unchanged in the public client
 * Amraa1/ebarimt-pos-sdk, commit ccaef2fcedbe8ba004977e92f00dd3a25aa83e84:
 *  - `spec/vendor/PosAPI.yaml`: ITC's OpenAPI 3.1 export ("PosAPI 3.0 системийн API холболт
 *    зааврууд"), operations `post-rest-receipt`, `delete-rest-receipt`,
 *    `get-api-info-check-getTinInfo`, `get-api-info-check-getInfo`;
 *  - `spec/vendor/pos-api-3.0.1-user-manual.pdf`: the user manual 3.0.1, §5 (receipt), §6 (field
 *    notes: statuses, VAT table, types), §7 (void);
 *  - `src/ebarimt_pos_sdk/resources/rest/receipt/schema.py` and `tests/data/receipt.py`: the
 *    client's typed shapes and an answer it recorded from the staging service.
 * Where they disagree the comment says which we follow. The rules the sandbox enforces and the
 * contract test checks are all here; the sandbox (apps/sandboxes, ebarimt) only adds what a tax authority knows
 * (issued receipts, taxpayers).
 */

/** ТТД: 11 digits for a legal entity, 12–14 for a person's civil id (OpenAPI `merchantTin`). */
export const posTinSchema = z.string().regex(/^\d{11,14}$/, 'a TIN is 11–14 digits');
/** ДДТД, the bill id of a receipt: "33 оронтой тоо". */
export const billIdSchema = z.string().regex(/^\d{33}$/, 'a bill id is 33 digits');
/** The receipt's date as PosAPI writes and wants it back: "yyyy-MM-dd HH:mm:ss". */
export const posDateSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/, 'a date is "yyyy-MM-dd HH:mm:ss"');

export const RECEIPT_TYPES = ['B2C_RECEIPT', 'B2B_RECEIPT', 'B2C_INVOICE', 'B2B_INVOICE'] as const;
/**
 * The manual's table (§6) and the OpenAPI text name `NO_VAT`; the description's own examples
 * (and techpartners-asia/ebarimt-pos3-go) send `NOT_VAT`. Both are accepted; we send neither.
 */
export const TAX_TYPES = ['VAT_ABLE', 'VAT_FREE', 'VAT_ZERO', 'NO_VAT', 'NOT_VAT'] as const;
export const BAR_CODE_TYPES = ['UNDEFINED', 'GS1', 'ISBN'] as const;
export const PAYMENT_CODES = ['CASH', 'PAYMENT_CARD'] as const;
export const PAYMENT_STATUSES = ['PAID', 'PAY', 'REVERSED', 'ERROR'] as const;
/** The receipt answer's `status`: issued, refused, or the payments do not cover the total. */
export const RECEIPT_STATUSES = ['SUCCESS', 'ERROR', 'PAYMENT'] as const;

/** Amounts are "бодит тоо" (real numbers), taxes included; none is negative. */
const amount = z.number().finite().min(0);
const optionalAmount = amount.nullish();
const nullableText = z.string().nullish();

const itemSchema = z.object({
  name: z.string().min(1),
  /** Required by the OpenAPI; null in its own examples for a service without a bar code. */
  barCode: z.string().nullable(),
  barCodeType: z.enum(BAR_CODE_TYPES).optional(),
  /** "7 оронтой бүхэл тоо": the national product and service classification, 4th column. */
  classificationCode: z.string().regex(/^\d{7}$/, 'classificationCode is 7 digits'),
  /** "3 оронтой бүхэл тоо", required for VAT_FREE and VAT_ZERO (checked below). */
  taxProductCode: nullableText,
  measureUnit: z.string().min(1),
  /** The client's typed schema refuses 0 and below. */
  qty: z.number().finite().positive(),
  unitPrice: z.number().finite().positive(),
  totalAmount: amount,
  totalVAT: optionalAmount,
  totalCityTax: optionalAmount,
  totalBonus: optionalAmount,
  data: z.record(z.string(), z.unknown()).nullish(),
});

const subReceiptSchema = z.object({
  totalAmount: amount,
  taxType: z.enum(TAX_TYPES),
  merchantTin: posTinSchema,
  customerTin: nullableText,
  totalVAT: optionalAmount,
  totalCityTax: optionalAmount,
  bankAccountNo: nullableText,
  iBan: nullableText,
  invoiceId: nullableText,
  data: z.record(z.string(), z.unknown()).nullish(),
  items: z.array(itemSchema).min(1, 'a receipt has at least one item'),
});

/** A card payment's data, all four required once `data` is sent (OpenAPI `payments.data`). */
const cardDataSchema = z.object({
  terminalID: z.string().min(1),
  rrn: z.string().min(1),
  maskedCardNumber: z.string().min(1),
  easy: z.boolean(),
  bankCode: z.string().optional(),
});

const paymentSchema = z.object({
  code: z.enum(PAYMENT_CODES),
  exchangeCode: z.string().optional(),
  status: z.enum(PAYMENT_STATUSES),
  paidAmount: amount,
  data: cardDataSchema.nullish(),
});

/** Sums differ by rounding to the tögrög's two decimals at most. */
const CENT = 0.01;
const close = (a: number, b: number, tolerance = CENT) => Math.abs(a - b) <= tolerance + 1e-9;
const sum = (values: (number | null | undefined)[]) =>
  values.reduce<number>((total, v) => total + (v ?? 0), 0);

/**
 * The VAT a VAT-paying merchant charges on a VAT_ABLE amount: 10 % of the price before taxes,
 * so (total − city tax) × 10/110 (manual §6 "Нийт үнэ = Үндсэн үнэ + НӨАТ + НХАТ", example
 * 1000 + 100 + 20 = 1120, and the VAT table: VAT only on VAT_ABLE). Other tax types carry none.
 */
export function expectedVat(taxType: (typeof TAX_TYPES)[number], total: number, cityTax: number): number {
  return taxType === 'VAT_ABLE' ? Math.round(((total - cityTax) / 11) * 100) / 100 : 0;
}

const receiptRequestShape = z.object({
  /** "3 оронтой тоон утга" (000, 001, 142 …), the merchant numbers its own branches. */
  branchNo: z.string().regex(/^\d{3}$/, 'branchNo is 3 digits'),
  totalAmount: amount,
  totalVAT: optionalAmount,
  totalCityTax: optionalAmount,
  /** "4 оронтой бүхэл тоо", the location code the tax authority lists. */
  districtCode: z.string().regex(/^\d{4}$/, 'districtCode is 4 digits'),
  merchantTin: posTinSchema,
  /** The merchant's own till number, a string; the description gives no length. */
  posNo: z.string().min(1),
  /** Only for B2B_RECEIPT and B2B_INVOICE (checked below). */
  customerTin: nullableText,
  /** A citizen's 8-digit e-barimt number, only for B2C_RECEIPT (checked below). */
  consumerNo: nullableText,
  type: z.enum(RECEIPT_TYPES),
  inactiveId: nullableText,
  invoiceId: nullableText,
  reportMonth: nullableText,
  /** Unique within the day ("Тухайн өдөртөө дахин давтагдашгүй"); the description gives no form. */
  billIdSuffix: z.string().min(1),
  data: z.record(z.string(), z.unknown()).nullish(),
  receipts: z.array(subReceiptSchema).min(1, 'a batch has at least one receipt'),
  /** Not in the OpenAPI's required list, though every example has them. */
  payments: z.array(paymentSchema).optional(),
});
export type PosReceiptRequest = z.infer<typeof receiptRequestShape>;

const filled = (value: string | null | undefined) => value !== null && value !== undefined && value !== '';

/** `POST /rest/receipt`: the request, with the rules the description states in prose. */
export const posReceiptRequestSchema = receiptRequestShape.superRefine((body, ctx) => {
  const problem = (message: string, path: (string | number)[]) =>
    ctx.addIssue({ code: 'custom', message, path });
  const b2b = body.type === 'B2B_RECEIPT' || body.type === 'B2B_INVOICE';
  if (b2b && !posTinSchema.safeParse(body.customerTin).success) {
    problem('a B2B receipt names the buyer’s customerTin (11–14 digits)', ['customerTin']);
  }
  if (!b2b && filled(body.customerTin)) problem('customerTin is only for B2B receipts', ['customerTin']);
  if (filled(body.consumerNo)) {
    if (body.type !== 'B2C_RECEIPT') problem('consumerNo is only for B2C_RECEIPT', ['consumerNo']);
    else if (!/^\d{8}$/.test(body.consumerNo ?? '')) problem('consumerNo is 8 digits', ['consumerNo']);
  }
  for (const field of ['inactiveId', 'invoiceId'] as const) {
    if (filled(body[field]) && !billIdSchema.safeParse(body[field]).success) {
      problem(`${field} is a 33-digit bill id`, [field]);
    }
  }
  if (filled(body.reportMonth)) {
    if (!b2b) problem('reportMonth is only for B2B receipts and invoices', ['reportMonth']);
    else if (!/^\d{4}-\d{2}-\d{2}$/.test(body.reportMonth ?? '')) {
      problem('reportMonth is "yyyy-MM-dd"', ['reportMonth']);
    }
  }
  body.receipts.forEach((receipt, r) => {
    const at = (...path: (string | number)[]) => ['receipts', r, ...path];
    receipt.items.forEach((item, i) => {
      if (
        (receipt.taxType === 'VAT_FREE' || receipt.taxType === 'VAT_ZERO') &&
        !/^\d{3}$/.test(item.taxProductCode ?? '')
      ) {
        problem(
          'a VAT_FREE or VAT_ZERO item names its 3-digit taxProductCode',
          at('items', i, 'taxProductCode'),
        );
      }
      if (item.barCodeType && item.barCodeType !== 'UNDEFINED' && !filled(item.barCode)) {
        problem(`a ${item.barCodeType} item names its barCode`, at('items', i, 'barCode'));
      }
      const vat = expectedVat(receipt.taxType, item.totalAmount, item.totalCityTax ?? 0);
      if (!close(item.totalVAT ?? 0, vat)) {
        problem(
          `totalVAT must be ${vat} for a ${receipt.taxType} total of ${item.totalAmount}`,
          at('items', i, 'totalVAT'),
        );
      }
    });
    const n = receipt.items.length;
    const totals = [
      ['totalAmount', receipt.totalAmount, sum(receipt.items.map((item) => item.totalAmount))],
      ['totalVAT', receipt.totalVAT ?? 0, sum(receipt.items.map((item) => item.totalVAT))],
      ['totalCityTax', receipt.totalCityTax ?? 0, sum(receipt.items.map((item) => item.totalCityTax))],
    ] as const;
    for (const [field, given, items] of totals) {
      if (!close(given, items, CENT * n)) problem(`${field} must be the items' sum, ${items}`, at(field));
    }
  });
  const n = body.receipts.length;
  const batch = [
    ['totalAmount', body.totalAmount, sum(body.receipts.map((receipt) => receipt.totalAmount))],
    ['totalVAT', body.totalVAT ?? 0, sum(body.receipts.map((receipt) => receipt.totalVAT))],
    ['totalCityTax', body.totalCityTax ?? 0, sum(body.receipts.map((receipt) => receipt.totalCityTax))],
  ] as const;
  for (const [field, given, receipts] of batch) {
    if (!close(given, receipts, CENT * n))
      problem(`${field} must be the receipts' sum, ${receipts}`, [field]);
  }
});

/**
 * Whether the payments cover the total. Short of it PosAPI issues nothing and answers
 * `status: "PAYMENT"` ("төлбөрийн мэдээлэл дутуу", manual §6): an answer, not a refusal.
 */
export function paymentsCover(body: PosReceiptRequest): boolean {
  if (!body.payments) return true;
  const paid = sum(body.payments.filter((payment) => payment.status === 'PAID').map((p) => p.paidAmount));
  return paid + CENT >= body.totalAmount;
}

/**
 * A citizen receipt's lottery number as the staging service prints it ("SN 47461258" in the
 * client's recorded answer): two letters, a space, eight digits. Not stated by the description.
 */
export const LOTTERY_PATTERN = /^[A-Z]{2} \d{8}$/;

/**
 * The answer of an issued receipt. The OpenAPI names the QR field `qrDate` (a typo); its text,
 * the manual ("qrData: олон оронтой бүхэл тоо") and the recorded answer say `qrData`. `lottery`
 * is the OpenAPI's required string; the client types it optional (a company receipt has none).
 * Other fields of the request come back too (loose).
 */
export const posReceiptIssuedSchema = z.looseObject({
  id: billIdSchema,
  version: z.string().optional(),
  posId: z.number(),
  status: z.literal('SUCCESS'),
  message: z.string().nullish(),
  qrData: z.string().regex(/^\d+$/, 'qrData is a many-digit number'),
  lottery: z.string().nullish(),
  date: posDateSchema,
  easy: z.boolean(),
  receipts: z.array(z.looseObject({ id: billIdSchema, bankAccountId: z.number().nullish() })).min(1),
});

/** A receipt not issued, answered 200: `ERROR` (refused) or `PAYMENT` (payments short). */
export const posReceiptNotIssuedSchema = z.looseObject({
  status: z.enum(['ERROR', 'PAYMENT']),
  message: z.string(),
});

/**
 * A refused request answered with an HTTP error. The description documents no error status; the
 * public client reads such a body as `{ status, message, date? }` (base_resource.py
 * `_ensure_http_success`) and got one for an invalid receipt at the staging service
 * (tests/integration/test_integration_receipt.py). The sandbox answers this with 400.
 */
export const posRefusalSchema = z.looseObject({
  status: z.literal('ERROR'),
  message: z.string().min(1),
  date: z.string().optional(),
});

/** `DELETE /rest/receipt`: the batch bill id and its date as the receipt answer gave them. */
export const posVoidRequestSchema = z.object({ id: billIdSchema, date: posDateSchema });
/** The void answers no body ("Response: NONE", manual §7). */

/** The first problem of a refused request, as one line for PosAPI's `message`. */
export function firstProblem(error: z.ZodError): string {
  const [issue] = error.issues;
  if (!issue) return 'invalid request';
  const path = issue.path.join('.');
  return path ? `${path}: ${issue.message}` : issue.message;
}
