import { messageSchema, setPasswordSchema } from '@tunes/shared/accounts';
import { errorBodySchema } from '@tunes/shared/errors';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { setFirstPassword } from './password-set.js';
import { accountErrors } from './route-schemas.js';

/** A first password for a phone account (issue 37), beside the change of password (self-service). */
export default async function passwordSetRoutes(api: FastifyInstance) {
  const app = api.withTypeProvider<ZodTypeProvider>();
  const { deps } = api;

  app.post(
    '/users/me/password/set',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['accounts'],
        summary: 'Set a first password on an account without one (a fresh code to its number as proof)',
        description:
          '409 `password_exists` when the account has one; 400 `invalid_code` for a wrong or spent code.',
        body: setPasswordSchema,
        response: { 200: messageSchema, ...accountErrors, 409: errorBodySchema },
      },
    },
    async (request) => {
      await setFirstPassword(
        deps,
        { userId: request.userId, clientAddress: request.ip },
        request.body.Otp,
        request.body.NewPassword,
        request.log,
      );
      return { message: 'Your password has been set.' };
    },
  );
}
