import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { forbidden, unauthorized } from '../lib/errors.js';
import { assertSessionLive } from '../modules/accounts/sessions.js';

/** Methods that read: an access token of an ended sign-in still reads until it expires. */
const READS = new Set(['GET', 'HEAD']);

declare module 'fastify' {
  interface FastifyInstance {
    /** onRequest hook: requires a valid `Authorization: Bearer <access token>`. */
    authenticate(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  }
  interface FastifyRequest {
    /** The signed-in user's id; set by `authenticate`. */
    userId: string;
    /** The sign-in the token belongs to (refresh-token family), if any. */
    sessionId: string | undefined;
  }
}

/** Throws 403 unless the signed-in user is `ownerId`: a user may only reach what is theirs. */
export function assertSelf(request: FastifyRequest, ownerId: string): void {
  if (request.userId !== ownerId) throw forbidden();
}

export const auth = fp(
  async (app: FastifyInstance) => {
    app.decorateRequest('userId', '');
    app.decorateRequest('sessionId', undefined);
    // Every route that requires a token says so in the OpenAPI document, from the one source of
    // truth: its `onRequest: app.authenticate` (so no secured route goes undocumented). The check
    // runs before the body is read or validated: a caller without a token learns nothing.
    app.addHook('onRoute', (route) => {
      if (![route.onRequest].flat().includes(app.authenticate) || !route.schema) return;
      route.schema = { ...route.schema, security: [{ bearer: [] }] };
    });
    app.decorate('authenticate', async (request: FastifyRequest, reply: FastifyReply) => {
      // A signed-in user's answers are theirs alone: no browser or proxy keeps a copy of them.
      reply.header('cache-control', 'no-store');
      const header = request.headers.authorization;
      const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
      if (!match?.[1]) throw unauthorized();
      const claims = app.deps.accessTokens.verify(match[1]);
      if (!claims) throw unauthorized('The access token is invalid or has expired.');
      // A sign-in that has ended (logout, signed out from another device, a password change)
      // changes nothing more, though its stateless token is valid for up to its last minutes:
      // one indexed lookup on calls that write, none on the reads that carry the site.
      if (!READS.has(request.method)) await assertSessionLive(app.deps, claims.sid);
      request.userId = claims.sub;
      request.sessionId = claims.sid;
    });
  },
  { name: 'auth', dependencies: ['deps'] },
);
