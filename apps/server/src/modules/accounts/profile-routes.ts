import { detailsChangeSchema, emailChangeConfirmSchema, loginInfoSchema } from '@tunes/shared/accounts';
import { errorBodySchema } from '@tunes/shared/errors';
import { profileSchema } from '@tunes/shared/profile';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { assertSelf } from '../../plugins/auth.js';
import { cancelEmailChange, confirmEmailChange, requestEmailChange } from './email-change.js';
import { accountErrors, userIdSchema } from './route-schemas.js';
import { getLogins, getProfile, getUser, removeEmail, updateLanguage, updateNames } from './users.js';

/** The signed-in user's own profile: read it, edit it, confirm a new e-mail address. */
export default async function profileRoutes(api: FastifyInstance) {
  const app = api.withTypeProvider<ZodTypeProvider>();
  const { deps } = api;

  app.get(
    '/users/:sub/profile',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['accounts'],
        summary: "The signed-in user's profile with their subscriptions",
        params: z.object({ sub: userIdSchema('sub') }),
        response: { 200: profileSchema, ...accountErrors },
      },
    },
    async (request) => {
      assertSelf(request, request.params.sub);
      return getProfile(deps.db, request.params.sub, deps.clock.now());
    },
  );

  app.patch(
    '/users/me/details',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['accounts'],
        summary:
          'Change first name and last name (at most 50 characters each) and Language (en, mn: the ' +
          'language of every message to the account); a new Email is sent a code and takes effect once ' +
          'the code is confirmed (PendingEmail)',
        body: detailsChangeSchema,
        response: { 200: profileSchema, ...accountErrors, 429: errorBodySchema },
      },
    },
    async (request) => {
      // The site sends the whole profile state; it may only be the signed-in user's own.
      if (request.body.UserId !== undefined) assertSelf(request, request.body.UserId);
      const now = deps.clock.now();
      const user = await getUser(deps.db, request.userId);
      const { Email } = request.body;
      if (Email === '') await removeEmail(deps.db, user, now);
      else if (Email !== undefined && Email === user.primary_email) await cancelEmailChange(deps, user);
      else if (Email !== undefined) {
        await requestEmailChange(deps, user, Email, request.ip, request.log);
      }
      await updateNames(deps.db, user, request.body, now);
      if (request.body.Language) await updateLanguage(deps.db, user, request.body.Language, now);
      return getProfile(deps.db, request.userId, deps.clock.now());
    },
  );

  app.post(
    '/users/me/email/confirm',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['accounts'],
        summary: 'Confirm a new e-mail address with the code sent to it; the old address is told',
        body: emailChangeConfirmSchema,
        response: { 200: profileSchema, ...accountErrors, 409: errorBodySchema },
      },
    },
    async (request) => {
      await confirmEmailChange(deps, request.userId, request.body.Otp, request.log);
      return getProfile(deps.db, request.userId, deps.clock.now());
    },
  );

  app.get(
    '/users/getlogins',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['accounts'],
        summary: 'How the signed-in user can sign in (e-mail, msisdn, username)',
        querystring: z.object({ id: userIdSchema('id') }),
        response: { 200: z.array(loginInfoSchema), ...accountErrors },
      },
    },
    async (request) => {
      assertSelf(request, request.query.id);
      return getLogins(deps.db, request.query.id);
    },
  );
}
