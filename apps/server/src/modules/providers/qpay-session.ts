import { z } from 'zod';
import type { Clock } from '../../lib/clock.js';
import { type Exchange, GatewayError } from './exchange.js';
import type { JsonAnswer, JsonCall } from './transport.js';

/** Where QPay is and who we are there. */
export interface QpaySessionOptions {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  call: JsonCall;
  clock: Clock;
}

const tokenAnswer = z.object({
  access_token: z.string().min(8).max(4000),
  refresh_token: z.string().min(8).max(4000),
  expires_in: z.number(),
  refresh_expires_in: z.number(),
});
/** A token is renewed this long before QPay says it ends, so no call carries a dying one. */
const EXPIRY_MARGIN_MS = 60_000;

/**
 * QPay answers `expires_in` as the Unix time (seconds) the token ends, not as a duration; a
 * small number is read as seconds from now, so either form works.
 */
function expiryOf(value: number, now: number): number {
  return value > 1_000_000_000 ? value * 1000 : now + value * 1000;
}

interface Tokens {
  access: string;
  accessEnds: number;
  refresh: string;
  refreshEnds: number;
}

/**
 * Calls to QPay's merchant API v2 with an access token: taken with the client credentials (HTTP
 * Basic), kept for this process, renewed with the refresh token before it ends, and taken afresh
 * when QPay refuses it. Concurrent callers share one token request.
 */
export function qpaySession(options: QpaySessionOptions) {
  const { baseUrl, call, clock } = options;
  let tokens: Tokens | undefined;
  let pending: Promise<Tokens> | undefined;

  const fail = (message: string, request: Record<string, unknown>, response: unknown) =>
    new GatewayError(`QPay: ${message}`, request, response);

  const send = async (request: Parameters<JsonCall>[0], logged: Record<string, unknown>) => {
    try {
      return await call(request);
    } catch (error) {
      throw fail(`unreachable: ${(error as Error).message}`, logged, null);
    }
  };

  const readTokens = (answer: JsonAnswer, logged: Record<string, unknown>): Tokens => {
    if (answer.status < 200 || answer.status >= 300) {
      throw fail(`the token request answered ${answer.status}`, logged, answer.body);
    }
    const parsed = tokenAnswer.safeParse(answer.body);
    if (!parsed.success) throw fail('an unreadable token answer', logged, null);
    const now = clock.now().getTime();
    return {
      access: parsed.data.access_token,
      accessEnds: expiryOf(parsed.data.expires_in, now),
      refresh: parsed.data.refresh_token,
      refreshEnds: expiryOf(parsed.data.refresh_expires_in, now),
    };
  };

  const fetchTokens = async (): Promise<Tokens> => {
    const now = clock.now().getTime();
    if (tokens && tokens.refreshEnds - EXPIRY_MARGIN_MS > now) {
      const logged = { url: `${baseUrl}/v2/auth/refresh` };
      const answer = await send(
        { method: 'POST', url: logged.url, headers: { authorization: `Bearer ${tokens.refresh}` } },
        logged,
      );
      // A refused refresh token: start again with the client credentials.
      if (answer.status !== 401) return readTokens(answer, logged);
    }
    const logged = { url: `${baseUrl}/v2/auth/token`, client_id: options.clientId };
    const basic = Buffer.from(`${options.clientId}:${options.clientSecret}`).toString('base64');
    const answer = await send(
      { method: 'POST', url: logged.url, headers: { authorization: `Basic ${basic}` } },
      logged,
    );
    return readTokens(answer, logged);
  };

  const accessToken = async (renew: boolean): Promise<string> => {
    const now = clock.now().getTime();
    if (!renew && tokens && tokens.accessEnds - EXPIRY_MARGIN_MS > now) return tokens.access;
    pending ??= fetchTokens().finally(() => {
      pending = undefined;
    });
    tokens = await pending;
    return tokens.access;
  };

  /** One API call with the access token; a 401 renews the token and tries once more. */
  const api = async <T>(
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    body: Record<string, unknown> | undefined,
    schema: z.ZodType<T>,
  ): Promise<Exchange<T>> => {
    const logged = { method, url: `${baseUrl}${path}`, ...(body ? { body } : {}) };
    let answer: JsonAnswer | undefined;
    for (const renew of [false, true]) {
      const token = await accessToken(renew);
      answer = await send(
        {
          method,
          url: `${baseUrl}${path}`,
          headers: { authorization: `Bearer ${token}` },
          ...(body ? { body } : {}),
        },
        logged,
      );
      if (answer.status !== 401) break;
    }
    if (!answer || answer.status < 200 || answer.status >= 300) {
      throw fail(`answered ${answer?.status}`, logged, answer?.body);
    }
    const parsed = schema.safeParse(answer.body);
    if (!parsed.success) throw fail('an unreadable answer', logged, answer.body);
    return { request: logged, response: answer.body, result: parsed.data };
  };

  return { api, fail };
}
