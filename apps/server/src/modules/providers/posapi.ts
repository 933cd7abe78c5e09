import type { z } from 'zod';
import { type Exchange, GatewayError } from './exchange.js';
import { posReceiptIssuedSchema, posReceiptNotIssuedSchema } from './posapi-contract.js';
import { taxpayerInfoAnswerSchema, tinInfoAnswerSchema } from './posapi-taxpayer-contract.js';
import type { JsonAnswer, JsonCall, JsonRequest } from './transport.js';

/** A VAT receipt to issue: to a citizen (B2C, with a lottery number) or to a company (B2B). */
export interface ReceiptRequest {
  /** Total paid, VAT (10 %) included. */
  totalAmount: number;
  /**
   * The item's price before a discount (an offer), when there was one. PosAPI 3.0 has no discount
   * field (its items carry `unitPrice`, `totalAmount` and `totalBonus`, a bonus not a discount):
   * the receipt shows the discount as a unit price above the item's total (decision 0044).
   */
  listPrice?: number;
  /** The company's taxpayer number for a B2B receipt; none for a citizen. */
  customerTin: string | null;
  itemName: string;
  payment: 'PAYMENT_CARD' | 'CASH';
  /** Different per invoice and receipt (the bill id's own suffix at the tax authority). */
  billIdSuffix: string;
}

export interface IssuedReceipt {
  /** The bill id (ДДТД). */
  id: string;
  /** Only citizen receipts have one. */
  lottery: string | null;
  qrData: string;
  /** When the tax authority dated it, as it writes it (needed to void it). */
  date: string;
}

export interface EbarimtGateway {
  issueReceipt(receipt: ReceiptRequest): Promise<Exchange<IssuedReceipt>>;
  /** Voids a receipt (a citizen receipt replaced by a company one). */
  voidReceipt(billId: string, date: string): Promise<Exchange<null>>;
  /** The company of a registry number, or null when the tax authority knows none. */
  findCompany(registry: string): Promise<Exchange<{ tin: string; name: string } | null>>;
}

export interface EbarimtOptions {
  baseUrl: string;
  infoUrl: string;
  merchantTin: string;
  branchNo: string;
  posNo: string;
  districtCode: string;
  classificationCode: string;
  call: JsonCall;
}

/** Mongolia's VAT (10 %) included in a price, to the tögrög's two decimals. */
export function includedVat(total: number): number {
  return Math.round((total / 11) * 100) / 100;
}

/**
 * PosAPI forbids keeping a receipt's `lottery` and `qrData` in any form but printed on the
 * receipt (decision 0033): what the adapter hands the payment log has them masked.
 */
export function withoutReceiptCodes(body: unknown): unknown {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return body;
  const masked: Record<string, unknown> = { ...body };
  for (const field of ['lottery', 'qrData'] as const) {
    if (typeof masked[field] === 'string' && masked[field] !== '') masked[field] = '(on the receipt only)';
  }
  return masked;
}

/**
 * The tax authority's PosAPI 3.0 (product.md §12): `POST {EBARIMT_URL}/rest/receipt` issues a
 * receipt, `DELETE {EBARIMT_URL}/rest/receipt` voids one, and the public information service
 * (`{EBARIMT_INFO_URL}/api/info/check/getTinInfo` and `getInfo`) names a company by its registry
 * number. The built-in sandbox by default.
 */
export function httpEbarimtGateway(options: EbarimtOptions): EbarimtGateway {
  const send = async (request: JsonRequest): Promise<JsonAnswer> => {
    const logged = {
      method: request.method,
      url: request.url,
      ...(request.body ? { body: request.body } : {}),
    };
    let answer: JsonAnswer;
    try {
      answer = await options.call(request);
    } catch (error) {
      throw new GatewayError(`e-barimt: unreachable: ${(error as Error).message}`, logged, null);
    }
    if (answer.status < 200 || answer.status >= 300) {
      throw new GatewayError(`e-barimt: answered ${answer.status}`, logged, withoutReceiptCodes(answer.body));
    }
    return answer;
  };
  const read = <T>(answer: JsonAnswer, schema: z.ZodType<T>, logged: Record<string, unknown>): T => {
    const parsed = schema.safeParse(answer.body);
    if (!parsed.success) {
      throw new GatewayError('e-barimt: an unreadable answer', logged, withoutReceiptCodes(answer.body));
    }
    return parsed.data;
  };

  return {
    async issueReceipt(receipt) {
      const vat = includedVat(receipt.totalAmount);
      const body = {
        branchNo: options.branchNo,
        totalAmount: receipt.totalAmount,
        totalVAT: vat,
        totalCityTax: 0,
        districtCode: options.districtCode,
        merchantTin: options.merchantTin,
        posNo: options.posNo,
        customerTin: receipt.customerTin,
        consumerNo: null,
        type: receipt.customerTin ? 'B2B_RECEIPT' : 'B2C_RECEIPT',
        billIdSuffix: receipt.billIdSuffix,
        receipts: [
          {
            totalAmount: receipt.totalAmount,
            taxType: 'VAT_ABLE',
            merchantTin: options.merchantTin,
            totalVAT: vat,
            totalCityTax: 0,
            items: [
              {
                name: receipt.itemName,
                barCode: null,
                barCodeType: 'UNDEFINED',
                classificationCode: options.classificationCode,
                measureUnit: 'ш',
                qty: 1,
                unitPrice: Math.max(receipt.listPrice ?? 0, receipt.totalAmount),
                totalAmount: receipt.totalAmount,
                totalVAT: vat,
                totalCityTax: 0,
              },
            ],
          },
        ],
        payments: [{ code: receipt.payment, status: 'PAID', paidAmount: receipt.totalAmount }],
      };
      const request: JsonRequest = { method: 'POST', url: `${options.baseUrl}/rest/receipt`, body };
      const logged = { url: request.url, body };
      const answer = await send(request);
      const issued = posReceiptIssuedSchema.safeParse(answer.body);
      if (!issued.success) {
        const refused = posReceiptNotIssuedSchema.safeParse(answer.body);
        throw new GatewayError(
          refused.success
            ? `e-barimt: the receipt was not issued (${refused.data.status}: ${refused.data.message})`
            : 'e-barimt: an unreadable answer',
          logged,
          withoutReceiptCodes(answer.body),
        );
      }
      const { id, lottery, qrData, date } = issued.data;
      return {
        request: logged,
        response: withoutReceiptCodes(issued.data),
        result: { id, lottery: lottery || null, qrData, date },
      };
    },

    async voidReceipt(billId, date) {
      const request: JsonRequest = {
        method: 'DELETE',
        url: `${options.baseUrl}/rest/receipt`,
        body: { id: billId, date },
      };
      const answer = await send(request);
      return { request: { url: request.url, body: request.body }, response: answer.body, result: null };
    },

    async findCompany(registry) {
      const tinUrl = `${options.infoUrl}/api/info/check/getTinInfo?${new URLSearchParams({ regNo: registry })}`;
      const tinLogged = { url: tinUrl };
      const tin = read(await send({ method: 'GET', url: tinUrl }), tinInfoAnswerSchema, tinLogged);
      if (tin.status !== 200 || tin.data === null || tin.data === undefined) {
        return { request: tinLogged, response: tin, result: null };
      }
      const infoUrl = `${options.infoUrl}/api/info/check/getInfo?${new URLSearchParams({ tin: String(tin.data) })}`;
      const info = read(await send({ method: 'GET', url: infoUrl }), taxpayerInfoAnswerSchema, {
        url: infoUrl,
      });
      const result =
        info.status === 200 && info.data?.found ? { tin: String(tin.data), name: info.data.name } : null;
      return { request: { url: infoUrl }, response: info, result };
    },
  };
}
