import { API_ERROR_CODES } from '@tunes/shared/error-codes';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, forbidden, unauthorized } from '../../lib/errors.js';
import { type ConsoleSession, SESSION_MAX_MS, touchSession } from './operator-sessions.js';
import type { OperatorRole } from './tables.js';

export const SESSION_COOKIE = 'tunes_op';
export const CONSOLE_HEADER = 'x-tunes-console';
const COOKIE_PATH = '/api/admin';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in operator's session; set by `requireRole`. */
    console: ConsoleSession | null;
  }
}

export function sessionToken(request: FastifyRequest): string | null {
  const header = request.headers.cookie;
  if (!header || header.length > 8192) return null;
  for (const part of header.split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === SESSION_COOKIE) return value.join('=') || null;
  }
  return null;
}

export function setSessionCookie(reply: FastifyReply, token: string, secure: boolean): void {
  reply.header(
    'set-cookie',
    `${SESSION_COOKIE}=${token}; Path=${COOKIE_PATH}; HttpOnly; SameSite=Strict; Max-Age=${SESSION_MAX_MS / 1000}${secure ? '; Secure' : ''}`,
  );
}

export function clearSessionCookie(reply: FastifyReply, secure: boolean): void {
  reply.header(
    'set-cookie',
    `${SESSION_COOKIE}=; Path=${COOKIE_PATH}; HttpOnly; SameSite=Strict; Max-Age=0${secure ? '; Secure' : ''}`,
  );
}

/** The whole `/api/admin` scope: a listener's valid access token is refused there (403). */
export function guardConsoleScope(app: FastifyInstance): void {
  app.decorateRequest('console', null);
  app.addHook('onRequest', async (request) => {
    const match = request.headers.authorization?.match(/^Bearer\s+(\S+)$/i);
    if (match?.[1] && app.deps.accessTokens.verify(match[1])) {
      throw forbidden('Listener tokens have no access to the operator console.');
    }
  });
}

/**
 * A request that may change something must carry `X-Tunes-Console: 1`, which a cross-site form
 * or image cannot send; with the SameSite=Strict cookie this is the CSRF defence.
 */
export async function requireConsoleHeader(request: FastifyRequest): Promise<void> {
  if (request.method !== 'GET' && request.method !== 'HEAD' && request.headers[CONSOLE_HEADER] !== '1') {
    throw new AppError(
      403,
      API_ERROR_CODES.csrfHeaderMissing,
      'Send the header X-Tunes-Console: 1 with this request.',
    );
  }
}

/**
 * onRequest hook: a live operator session (401), the console header on changes (403), and one
 * of `roles` (403); admin may do everything.
 */
export function requireRole(app: FastifyInstance, ...roles: OperatorRole[]) {
  return async (request: FastifyRequest) => {
    const token = sessionToken(request);
    const session = token ? await touchSession(app.deps, token) : null;
    if (!session) throw unauthorized('Sign in to the console.');
    await requireConsoleHeader(request);
    if (session.operator.role !== 'admin' && !roles.includes(session.operator.role)) {
      throw forbidden('Your role may not do this.');
    }
    request.console = session;
  };
}

/** The signed-in operator of a route behind `requireRole`. */
export function operatorOf(request: FastifyRequest): ConsoleSession {
  if (!request.console) throw unauthorized('Sign in to the console.');
  return request.console;
}
