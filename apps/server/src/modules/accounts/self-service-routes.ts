import {
  changePasswordSchema,
  deleteAccountSchema,
  messageSchema,
  phoneChangeConfirmSchema,
  phoneChangeSchema,
  sessionSchema,
} from '@tunes/shared/accounts';
import { errorBodySchema } from '@tunes/shared/errors';
import { profileSchema } from '@tunes/shared/profile';
import { toMsisdn } from '@tunes/shared/validation';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../../lib/errors.js';
import { deleteAccount, exportAccount } from './account-data.js';
import { changePassword, proveFreshSignIn } from './account-security.js';
import { cancelPhoneChange, confirmPhoneChange, requestPhoneChange } from './phone-change.js';
import { accountErrors } from './route-schemas.js';
import {
  assertSessionLive,
  endCurrentSession,
  endOtherSessions,
  endSession,
  listSessions,
} from './sessions.js';
import { getProfile, getUser } from './users.js';

/**
 * Account self-service of product.md §14: password, phone number, signed-in devices, export,
 * deletion. (The e-mail change rides on `PATCH /users/me/details`, in profile-routes.ts.)
 */
export default async function selfServiceRoutes(api: FastifyInstance) {
  const app = api.withTypeProvider<ZodTypeProvider>();
  const { deps } = api;

  app.post(
    '/users/me/password',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['accounts'],
        summary: 'Change the password (the current one required); every other device is signed out',
        body: changePasswordSchema,
        response: { 200: messageSchema, ...accountErrors },
      },
    },
    async (request) => {
      const { CurrentPassword, NewPassword } = request.body;
      await changePassword(
        deps,
        { userId: request.userId, sessionId: request.sessionId, clientAddress: request.ip },
        CurrentPassword,
        NewPassword,
        request.log,
      );
      return { message: 'Your password has been changed.' };
    },
  );

  app.post(
    '/users/me/phone',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['accounts'],
        summary:
          'Change the phone number: a code goes to the new number, which takes effect once the code is ' +
          'confirmed (PendingPhone); the current number withdraws a waiting change',
        body: phoneChangeSchema,
        response: { 200: profileSchema, ...accountErrors },
      },
    },
    async (request) => {
      const user = await getUser(deps.db, request.userId);
      const msisdn = toMsisdn(request.body.CountryCode, request.body.PhoneNumber);
      await requestPhoneChange(deps, user, msisdn, request.ip, request.log);
      return getProfile(deps.db, request.userId, deps.clock.now());
    },
  );

  app.delete(
    '/users/me/phone/pending',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['accounts'],
        summary: 'Withdraw a phone number change that waits for its code',
        response: { 200: profileSchema, ...accountErrors },
      },
    },
    async (request) => {
      await cancelPhoneChange(deps, await getUser(deps.db, request.userId));
      return getProfile(deps.db, request.userId, deps.clock.now());
    },
  );

  app.post(
    '/users/me/phone/confirm',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['accounts'],
        summary: 'Confirm a new phone number with the code sent to it; the old number is told',
        description: '409 `phone_in_use` when another account has the number.',
        body: phoneChangeConfirmSchema,
        response: { 200: profileSchema, ...accountErrors, 409: errorBodySchema },
      },
    },
    async (request) => {
      await confirmPhoneChange(deps, request.userId, request.body.Otp, request.log);
      return getProfile(deps.db, request.userId, deps.clock.now());
    },
  );

  app.get(
    '/users/me/sessions',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['accounts'],
        summary: 'The devices signed in to this account, newest use first',
        response: { 200: z.array(sessionSchema), ...accountErrors },
      },
    },
    async (request) => listSessions(deps, request.userId, request.sessionId),
  );

  app.delete(
    '/users/me/sessions/current',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['accounts'],
        summary:
          'Sign this device out (logout): its refresh token stops working and its access token can ' +
          'change nothing more',
        response: { 204: z.null(), ...accountErrors },
      },
    },
    async (request, reply) => {
      await endCurrentSession(deps, request.sessionId);
      return reply.code(204).send(null);
    },
  );

  app.delete(
    '/users/me/sessions/:id',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['accounts'],
        summary: 'Sign one device out: its refresh token stops working at once',
        params: z.object({ id: z.uuid({ error: 'id must be a session id' }) }),
        response: { 204: z.null(), ...accountErrors },
      },
    },
    async (request, reply) => {
      await endSession(deps, request.userId, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.delete(
    '/users/me/sessions',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['accounts'],
        summary: 'Sign every other device out',
        response: { 204: z.null(), ...accountErrors },
      },
    },
    async (request, reply) => {
      // The router ignores a trailing slash; `/sessions/` is a device id left out, not "all".
      if (request.url.split('?')[0]?.endsWith('/')) throw notFound('Name the device to sign out.');
      await endOtherSessions(deps, request.userId, request.sessionId);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/users/me/export',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['accounts'],
        summary: "Everything the service keeps about the listener, as JSON (nobody else's data)",
        response: { 200: z.record(z.string(), z.unknown()), ...accountErrors },
      },
    },
    async (request, reply) => {
      // Everything about the listener: not for the token of a sign-in that has ended.
      await assertSessionLive(deps, request.sessionId);
      // Kept out of caches by the token check itself (plugins/auth.ts), as every signed-in answer.
      reply.header('content-disposition', 'attachment; filename="tunes-my-data.json"');
      return exportAccount(deps, request.userId, request.sessionId);
    },
  );

  app.delete(
    '/users/me',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['accounts'],
        summary:
          'Delete the account with a fresh proof (a code sent to it, or its password): renewals stop, ' +
          'personal data is erased, payment records stay without personal fields',
        body: deleteAccountSchema,
        response: { 204: z.null(), ...accountErrors },
      },
    },
    async (request, reply) => {
      const user = await getUser(deps.db, request.userId);
      await proveFreshSignIn(deps, user, request.body, request.ip);
      await deleteAccount(deps, user.id, request.log);
      return reply.code(204).send(null);
    },
  );
}
