import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/errors.js';
import { SANDBOX_COMPANIES } from './companies.js';
import { issueSandboxReceipt, orderOutages, takeOutage, voidSandboxReceipt } from './receipts.js';
import './tables.js';

const money = z.number().min(0).max(1_000_000_000);
const item = z.object({
  name: z.string().min(1).max(500),
  classificationCode: z.string().regex(/^\d{7}$/),
  measureUnit: z.string().max(20),
  qty: z.number().positive().max(1_000_000),
  unitPrice: money,
  totalAmount: money,
  totalVAT: money,
  totalCityTax: money,
  barCode: z.string().max(100).nullish(),
  barCodeType: z.string().max(40).optional(),
});
const receiptRequest = z.object({
  branchNo: z.string().regex(/^\d{3}$/),
  totalAmount: money,
  totalVAT: money,
  totalCityTax: money,
  districtCode: z.string().regex(/^\d{4}$/),
  merchantTin: z.string().regex(/^\d{11,14}$/),
  posNo: z.string().min(1).max(20),
  customerTin: z
    .string()
    .regex(/^\d{11,14}$/)
    .nullable(),
  consumerNo: z.string().max(20).nullish(),
  type: z.enum(['B2C_RECEIPT', 'B2B_RECEIPT']),
  billIdSuffix: z.string().regex(/^\d{1,6}$/),
  receipts: z
    .array(
      z.object({
        totalAmount: money,
        taxType: z.enum(['VAT_ABLE', 'VAT_FREE', 'VAT_ZERO', 'NO_VAT']),
        merchantTin: z.string().regex(/^\d{11,14}$/),
        totalVAT: money,
        totalCityTax: money,
        items: z.array(item).min(1).max(100),
      }),
    )
    .min(1)
    .max(10),
  payments: z
    .array(z.object({ code: z.enum(['CASH', 'PAYMENT_CARD']), status: z.literal('PAID'), paidAmount: money }))
    .min(1)
    .max(10),
});
const posError = z.object({ error: z.string(), message: z.string() });

/**
 * The built-in PosAPI 3.0 stand-in (product.md §12), mounted at /sandbox-ebarimt outside /api and
 * never in production: `POST /rest/receipt` issues a receipt (a B2C one with a lottery number),
 * `DELETE /rest/receipt` voids one, and the information service names a company by registry
 * number. Tests order outages (`POST /test/outages`) to see the receipts retried.
 */
export default async function sandboxEbarimtRoutes(app: FastifyInstance) {
  const { deps } = app;
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.post(
    '/rest/receipt',
    {
      schema: {
        tags: ['sandbox ebarimt'],
        summary: 'Issue a VAT receipt (PosAPI 3.0)',
        body: receiptRequest,
        response: {
          200: z.looseObject({ id: z.string(), status: z.string() }),
          400: posError,
          503: posError,
        },
      },
    },
    async (request) => {
      if (await takeOutage(deps)) {
        throw new AppError(503, 'POSAPI_UNAVAILABLE', 'The sandbox PosAPI is down (an ordered outage).');
      }
      const { body } = request;
      const vat = Math.round((body.totalAmount / 11) * 100) / 100;
      if (Math.abs(body.totalVAT - vat) > 0.01) {
        throw new AppError(
          400,
          'INVALID_VAT',
          `totalVAT must be ${vat} (10 % included in ${body.totalAmount}).`,
        );
      }
      if ((body.type === 'B2B_RECEIPT') !== (body.customerTin !== null)) {
        throw new AppError(
          400,
          'INVALID_CUSTOMER',
          'A B2B receipt names its customerTin; a B2C one does not.',
        );
      }
      const issued = await issueSandboxReceipt(deps, body);
      return {
        id: issued.id,
        posId: 1,
        status: 'SUCCESS',
        message: '',
        qrData: `${issued.id}${String(Math.round(body.totalAmount * 100)).padStart(12, '0')}${issued.date.replace(/\D/g, '')}`,
        lottery: issued.lottery ?? '',
        date: issued.date,
        easy: false,
        receipts: [{ id: issued.id, bankAccountId: null }],
      };
    },
  );

  routes.delete(
    '/rest/receipt',
    {
      schema: {
        tags: ['sandbox ebarimt'],
        summary: 'Void a receipt (PosAPI 3.0)',
        body: z.object({ id: z.string().min(1).max(100), date: z.string().min(1).max(40) }),
        response: { 200: z.object({ status: z.string() }), 404: posError },
      },
    },
    async (request) => {
      if (!(await voidSandboxReceipt(deps, request.body.id, request.body.date))) {
        throw new AppError(404, 'RECEIPT_NOT_FOUND', 'No receipt with that id and date.');
      }
      return { status: 'SUCCESS' };
    },
  );

  routes.get(
    '/api/info/check/getTinInfo',
    {
      schema: {
        tags: ['sandbox ebarimt'],
        summary: "A company's taxpayer number by registry number",
        querystring: z.object({ regNo: z.string().max(20) }),
        response: { 200: z.object({ msg: z.string(), status: z.number(), data: z.string().nullable() }) },
      },
    },
    async (request) => {
      const company = SANDBOX_COMPANIES[request.query.regNo];
      return company
        ? { msg: '', status: 200, data: company.tin }
        : { msg: 'not found', status: 400, data: null };
    },
  );

  routes.get(
    '/api/info/check/getInfo',
    {
      schema: {
        tags: ['sandbox ebarimt'],
        summary: 'A taxpayer by taxpayer number',
        querystring: z.object({ tin: z.string().max(20) }),
        response: {
          200: z.object({
            msg: z.string(),
            status: z.number(),
            data: z.object({ name: z.string(), vatPayer: z.boolean(), found: z.boolean() }).nullable(),
          }),
        },
      },
    },
    async (request) => {
      const company = Object.values(SANDBOX_COMPANIES).find(
        (candidate) => candidate.tin === request.query.tin,
      );
      return company
        ? { msg: '', status: 200, data: { name: company.name, vatPayer: true, found: true } }
        : { msg: 'not found', status: 400, data: null };
    },
  );

  routes.post(
    '/test/outages',
    {
      schema: {
        tags: ['sandbox ebarimt'],
        summary: 'Make the next n receipt requests fail with 503 (tests)',
        body: z.object({ receipts: z.number().int().min(0).max(100) }),
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await orderOutages(deps, request.body.receipts);
      return reply.code(204).send(null);
    },
  );
}
