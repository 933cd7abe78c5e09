import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { forbidden, unauthorized } from '../lib/errors.js';
import { assertSessionLive } from '../modules/accounts/sessions.js';

/** Methods that read: they rely on the in-memory set of ended sign-ins alone (no round trip). */
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
    const { revokedSessions, databaseReady } = app.deps;
    // Each process follows the ended sign-ins of all (lib/revoked-sessions.ts) while it serves.
    app.addHook('onClose', async () => revokedSessions.stop());
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
      if (claims.sid) {
        // A sign-in that has ended (logout, signed out from another device, a password change)
        // is refused though its stateless token has minutes left: one lookup in memory, which
        // every process keeps within about a second of the others (lib/revoked-sessions.ts).
        const loading = revokedSessions.following(databaseReady);
        if (loading) await loading;
        if (revokedSessions.has(claims.sid)) throw unauthorized('This sign-in has ended.');
        // A write also asks the database, so not even that second lets one through.
        if (!READS.has(request.method)) await assertSessionLive(app.deps, claims.sid);
      }
      request.userId = claims.sub;
      request.sessionId = claims.sid;
    });
  },
  { name: 'auth', dependencies: ['deps'] },
);
