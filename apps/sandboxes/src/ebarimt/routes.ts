import { setTimeout as sleep } from 'node:timers/promises';
import {
  firstProblem,
  paymentsCover,
  posReceiptRequestSchema,
  posVoidRequestSchema,
} from '@tunes/server/modules/providers/posapi-contract';
import {
  taxpayerInfoQuerySchema,
  tinInfoQuerySchema,
} from '@tunes/server/modules/providers/posapi-taxpayer-contract';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SANDBOX_COMPANIES } from './companies.js';
import { issueSandboxReceipt, orderFaults, takeFault, voidSandboxReceipt } from './receipts.js';
import './tables.js';

/** PosAPI's refusal: its own `status` word and `message` (the server's providers/posapi-contract.ts). */
const refuse = (reply: FastifyReply, code: number, message: string) =>
  reply.code(code).send({ status: 'ERROR', message });

/** The information service's own answer shape, found or not. */
const infoAnswer = (status: number, msg: string, data: unknown) => ({ msg, status, data });

/**
 * The built-in PosAPI 3.0 stand-in (product.md §12), mounted at /sandbox-ebarimt outside /api and
 * never in production. It checks every request against the published description
 * (the server's providers/posapi-contract.ts) and refuses in PosAPI's shape: `POST /rest/receipt` issues a
 * receipt (a B2C one with a lottery number), `DELETE /rest/receipt` voids one, and the
 * information service names a company by registry number. Tests order faults
 * (`POST /test/outages`): outages, the documented `ERROR` and `PAYMENT` answers, delays.
 */
export default async function sandboxEbarimtRoutes(app: FastifyInstance) {
  const { deps } = app;
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.post(
    '/rest/receipt',
    { schema: { tags: ['sandbox ebarimt'], summary: 'Issue a VAT receipt (PosAPI 3.0)' } },
    async (request, reply) => {
      const fault = await takeFault(deps);
      if (fault?.delay_ms) await sleep(fault.delay_ms);
      if (fault?.kind === 'unavailable') {
        return refuse(reply, 503, 'The sandbox PosAPI is down (an ordered outage).');
      }
      const parsed = posReceiptRequestSchema.safeParse(request.body);
      if (!parsed.success) return refuse(reply, 400, firstProblem(parsed.error));
      const body = parsed.data;
      if (fault?.kind === 'error') {
        return { status: 'ERROR', message: 'The sandbox PosAPI refused the receipt (an ordered error).' };
      }
      if (fault?.kind === 'payment' || !paymentsCover(body)) {
        return { status: 'PAYMENT', message: 'The payments do not cover the total.' };
      }
      const issued = await issueSandboxReceipt(deps, {
        type: body.type === 'B2B_RECEIPT' || body.type === 'B2B_INVOICE' ? 'B2B_RECEIPT' : 'B2C_RECEIPT',
        merchantTin: body.merchantTin,
        customerTin: body.customerTin || null,
        totalAmount: body.totalAmount,
        totalVAT: body.totalVAT ?? 0,
      });
      return {
        ...body,
        id: issued.id,
        version: 'sandbox',
        posId: 1,
        status: 'SUCCESS',
        message: '',
        qrData: `${issued.id}${String(Math.round(body.totalAmount * 100)).padStart(12, '0')}${issued.date.replace(/\D/g, '')}`,
        lottery: issued.lottery ?? '',
        date: issued.date,
        easy: false,
        receipts: body.receipts.map((receipt, index) => ({
          ...receipt,
          id: `${issued.id.slice(0, 32)}${index + 1}`,
          bankAccountId: null,
        })),
      };
    },
  );

  routes.delete(
    '/rest/receipt',
    { schema: { tags: ['sandbox ebarimt'], summary: 'Void a receipt (PosAPI 3.0)' } },
    async (request, reply) => {
      const parsed = posVoidRequestSchema.safeParse(request.body);
      if (!parsed.success) return refuse(reply, 400, firstProblem(parsed.error));
      if (!(await voidSandboxReceipt(deps, parsed.data.id, parsed.data.date))) {
        return refuse(reply, 404, 'No receipt with that id and date.');
      }
      // "Response: NONE" (manual §7).
      return reply.code(200).send();
    },
  );

  routes.get(
    '/api/info/check/getTinInfo',
    {
      schema: {
        tags: ['sandbox ebarimt'],
        summary: "A company's taxpayer number by registry number",
      },
    },
    async (request, reply) => {
      const query = tinInfoQuerySchema.safeParse(request.query);
      if (!query.success) return reply.code(400).send(infoAnswer(400, firstProblem(query.error), null));
      const company = SANDBOX_COMPANIES[query.data.regNo];
      // `data` is a number in the description (the TINs fit in a double).
      return company ? infoAnswer(200, 'Амжилттай', Number(company.tin)) : infoAnswer(400, 'not found', null);
    },
  );

  routes.get(
    '/api/info/check/getInfo',
    { schema: { tags: ['sandbox ebarimt'], summary: 'A taxpayer by taxpayer number' } },
    async (request, reply) => {
      const query = taxpayerInfoQuerySchema.safeParse(request.query);
      if (!query.success) return reply.code(400).send(infoAnswer(400, firstProblem(query.error), null));
      const company = Object.values(SANDBOX_COMPANIES).find((candidate) => candidate.tin === query.data.tin);
      if (!company) return infoAnswer(400, 'not found', null);
      return infoAnswer(200, 'Амжилттай', {
        name: company.name,
        freeProject: false,
        cityPayer: true,
        vatPayer: true,
        found: true,
        vatpayerRegisteredDate: '2019-02-16',
        isGovernment: false,
      });
    },
  );

  routes.post(
    '/test/outages',
    {
      schema: {
        tags: ['sandbox ebarimt'],
        summary: 'Make the next n receipt requests fail, refuse, fall short or be slow (tests)',
        body: z.object({
          receipts: z.number().int().min(0).max(100),
          /** `unavailable` 503; `error` and `payment` the documented 200 answers; `slow` only the delay. */
          kind: z.enum(['unavailable', 'error', 'payment', 'slow']).default('unavailable'),
          delayMs: z.number().int().min(0).max(15_000).default(0),
        }),
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      const { receipts, kind, delayMs } = request.body;
      await orderFaults(deps, { count: receipts, kind, delayMs });
      return reply.code(204).send(null);
    },
  );
}
