import { errorBodySchema } from '@tunes/shared/errors';
import {
  redeemedVoucherSchema,
  redeemVoucherQuerySchema,
  VOUCHER_ACTIVATED_MESSAGE,
} from '@tunes/shared/vouchers';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { notifyCouponService } from './coupon-service.js';
import { redeemVoucher } from './single-redemption.js';

/** product.md §7 `POST users/redeemvoucher?code=…`. */
export default async function voucherRoutes(app: FastifyInstance) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/users/redeemvoucher',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['vouchers'],
        summary: "Redeem a voucher: activates its package for the voucher's days",
        description:
          '400 `voucher_invalid` for an unknown, used or expired code; 400 `already_subscribed` for a user with an active subscription; 429 once the wrong codes of the hour are spent (5 per user, 50 per client address; a redeemed code does not count).',
        querystring: redeemVoucherQuerySchema,
        response: {
          200: redeemedVoucherSchema,
          400: errorBodySchema,
          401: errorBodySchema,
          429: errorBodySchema,
        },
      },
    },
    async (request) => {
      const redemption = await redeemVoucher(app.deps, request.userId, request.query.code, request.ip);
      await notifyCouponService(app.deps, request.userId, redemption.code, request.log);
      return {
        SubscriptionId: redemption.subscriptionId,
        StartDate: redemption.startDate.toISOString(),
        EndDate: redemption.endDate.toISOString(),
        Message: VOUCHER_ACTIVATED_MESSAGE,
      };
    },
  );
}
