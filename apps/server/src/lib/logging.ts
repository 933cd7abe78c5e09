import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import {
  type FastifyBaseLogger,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
  LogController,
} from 'fastify';
import pino from 'pino';

/** Where background work reports what failed: a request's or the app's log, or a command's output. */
export type ErrorLog = Pick<FastifyBaseLogger, 'error'>;

/** Query parameters whose values never reach the log (codes, tokens, passwords). */
const SECRET_QUERY_PARAMS = /([?&](?:otp|code|token|password|refresh_token|access_token|secret)=)[^&]*/gi;

/** Path segments that are secrets themselves: an invitation code accepted or withdrawn by its URL. */
const SECRET_PATH_SEGMENTS = /(\/invitations\/|\/invitation-codes\/)[^/?#]+/gi;

/**
 * The request id every log line of a request carries and its answer returns (`x-request-id`):
 * the caller's own when it is a plain token of 8–64 characters (a proxy's or a client's, to
 * follow one request across services), else a new UUID. Fastify's `requestIdHeader` would take
 * any value as it comes, so the app reads the header here, in `genReqId` (app.ts).
 */
export function requestIdOf(headers: IncomingHttpHeaders): string {
  const incoming = headers['x-request-id'];
  return typeof incoming === 'string' && /^[\w-]{8,64}$/.test(incoming) ? incoming : randomUUID();
}

export function redactUrl(url: string): string {
  return url.replace(SECRET_QUERY_PARAMS, '$1[redacted]').replace(SECRET_PATH_SEGMENTS, '$1[redacted]');
}

/** `json` for machines (production); `pretty` for people reading a terminal (development). */
export type LogFormat = 'json' | 'pretty';

/**
 * JSON lines go to stdout in batches: a line waits in a buffer until 8 KB are pending or 200 ms
 * have passed, then one `write` carries them all (a line cost a system call of its own, a
 * measurable share of a cached answer's CPU). The buffer is written out on exit.
 */
function stdoutLines() {
  const stream = pino.destination({ dest: 1, sync: true, minLength: 8192 });
  setInterval(() => stream.flush(), 200).unref();
  process.once('exit', () => stream.flushSync());
  return stream;
}

export function loggerOptions(level: string, format: LogFormat = 'json'): FastifyServerOptions['logger'] {
  const silent = level === 'silent';
  const pretty = format === 'pretty' && !silent;
  return {
    level,
    ...(pretty
      ? {
          transport: {
            target: 'pino-pretty',
            options: { singleLine: true, translateTime: 'HH:MM:ss', ignore: 'pid,hostname' },
          },
        }
      : silent
        ? {}
        : { stream: stdoutLines() }),
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'res.headers["set-cookie"]',
        '*.password',
        '*.Password',
        '*.otp',
        '*.Otp',
        '*.code',
        '*.token',
        '*.Token',
        '*.access_token',
        '*.refresh_token',
      ],
      censor: '[redacted]',
    },
    serializers: {
      req(request) {
        return {
          method: request.method,
          url: redactUrl(request.url),
          remoteAddress: request.ip,
        };
      },
    },
  };
}

/**
 * One log line per answered request instead of Fastify's two: method, redacted URL, status and
 * time, with the request id every line of that request carries; a 5xx answer at `error`.
 *
 * A successful line holds nothing but those fields (the URL already redacted), so it is written
 * by a child of the app's logger without the redaction pass and without the request's own child
 * logger: the pass over every configured path was a measurable share of a cached answer's CPU.
 * Failures keep going through the request's logger, redaction and all.
 */
export class OneLinePerRequest extends LogController {
  #access: pino.Logger | undefined;

  /** Called once the app's logger exists (`buildApp`). */
  useLogger(logger: FastifyBaseLogger): void {
    // Fastify's logger is pino's (loggerOptions); its type only names the common methods.
    this.#access = (logger as unknown as pino.Logger).child({}, { redact: [] });
  }

  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const status = reply.statusCode;
    const access = this.#access;
    if (!error && status < 500 && access && !access.isLevelEnabled('info')) return;
    const url = redactUrl(request.url);
    const ms = Math.round(reply.elapsedTime * 10) / 10;
    const text = `${request.method} ${url} ${status} ${ms} ms`;
    if (error) request.log.error({ method: request.method, url, status, ms, err: error }, text);
    else if (status >= 500) request.log.error({ method: request.method, url, status, ms }, text);
    else if (access) access.info({ reqId: request.id, method: request.method, url, status, ms }, text);
    else request.log.info({ method: request.method, url, status, ms }, text);
  }
}
