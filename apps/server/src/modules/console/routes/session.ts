import { setupCompleteSchema, setupStartSchema, signInSchema } from '@tunes/shared/console';
import { errorBodySchema } from '@tunes/shared/errors';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  clearSessionCookie,
  operatorOf,
  requireConsoleHeader,
  requireRole,
  sessionToken,
  setSessionCookie,
} from '../guard.js';
import { endSessionByToken, signIn } from '../operator-sessions.js';
import { completeSetup, startSetup } from '../operator-setup.js';
import { errors, SECURED, TAGS } from './schemas.js';

/** Operator set-up (TOTP, password), sign-in and sign-out, and who is signed in. */
export default async function consoleSessionRoutes(app: FastifyInstance) {
  const { deps } = app;
  const secure = deps.config.isProduction;
  const api = app.withTypeProvider<ZodTypeProvider>();
  const anyRole = requireRole(app, 'content', 'support');
  api.post(
    '/setup/start',
    {
      onRequest: requireConsoleHeader,
      schema: {
        tags: TAGS,
        summary: 'Start an operator set-up: a new TOTP secret and its QR',
        body: setupStartSchema,
        response: errors,
      },
    },
    (request) => startSetup(deps, request.body.token),
  );
  api.post(
    '/setup/complete',
    {
      onRequest: requireConsoleHeader,
      schema: {
        tags: TAGS,
        summary: 'Finish set-up: password and the first TOTP code; signs in',
        body: setupCompleteSchema,
        response: errors,
      },
    },
    async (request, reply) => {
      const { operator, sessionToken: token } = await completeSetup(deps, request.body);
      setSessionCookie(reply, token, secure);
      return { operator };
    },
  );
  api.post(
    '/session',
    {
      onRequest: requireConsoleHeader,
      schema: {
        tags: TAGS,
        summary: 'Sign in with e-mail, password and TOTP code',
        body: signInSchema,
        response: { ...errors, 429: errorBodySchema },
      },
    },
    async (request, reply) => {
      const { operator, sessionToken: token } = await signIn(deps, request.body, request.ip);
      setSessionCookie(reply, token, secure);
      return { operator };
    },
  );
  api.delete(
    '/session',
    { onRequest: requireConsoleHeader, schema: { tags: TAGS, summary: 'Sign out of the console' } },
    async (request, reply) => {
      const token = sessionToken(request);
      if (token) await endSessionByToken(deps, token);
      clearSessionCookie(reply, secure);
      return reply.code(204).send();
    },
  );
  api.get(
    '/me',
    {
      onRequest: anyRole,
      schema: { tags: TAGS, summary: 'The signed-in operator', security: SECURED, response: errors },
    },
    (request) => {
      const session = operatorOf(request);
      return {
        operator: session.operator,
        session: {
          expiresAt: session.expiresAt.toISOString(),
          idleExpiresAt: session.idleExpiresAt.toISOString(),
        },
      };
    },
  );
}
