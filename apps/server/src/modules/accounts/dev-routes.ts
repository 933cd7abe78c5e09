import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { mintHmacToken } from './hmac.js';

/** How long before now an expired access token from `/dev/accounts/expired-access-token` ran out. */
const EXPIRED_SINCE_SECONDS = 60;

/**
 * Development-only helpers for e2e tests that cannot open the database beside a running server.
 * Never mounted in production (app.ts).
 */
export default async function accountsDevRoutes(api: FastifyInstance) {
  const app = api.withTypeProvider<ZodTypeProvider>();
  const { deps } = api;

  /** Mints a silent-login token like `npm run admin -- hmac:mint` does. */
  app.post(
    '/accounts/hmac-token',
    {
      schema: {
        tags: ['dev'],
        summary: 'Mint a silent-login token for a user (development only)',
        body: z.object({ userId: z.uuid() }),
        response: { 200: z.object({ token: z.string() }) },
      },
    },
    async (request) => ({
      token: mintHmacToken(deps.config.HMAC_SECRET, request.body.userId, deps.clock.now()),
    }),
  );

  /**
   * Signs an access token for a user that expired a minute ago, as if it had been issued one
   * lifetime earlier: lets an e2e test watch the site refresh a session that ran out mid-use.
   */
  app.post(
    '/accounts/expired-access-token',
    {
      schema: {
        tags: ['dev'],
        summary: 'An access token of a user that has already expired (development only)',
        body: z.object({ userId: z.uuid() }),
        response: { 200: z.object({ access_token: z.string() }) },
      },
    },
    async (request) => {
      // Expired by the business clock (which the server checks, and /dev/clock may have moved
      // ahead) and by the wall clock (which the site checks before it sends a token).
      const now = Math.min(deps.clock.now().getTime(), Date.now());
      const issuedAt = now - (deps.accessTokens.ttlSeconds + EXPIRED_SINCE_SECONDS) * 1000;
      return { access_token: await deps.accessTokens.sign(request.body.userId, issuedAt) };
    },
  );
}
