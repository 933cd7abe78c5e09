import {
  type FastifyBaseLogger,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
  LogController,
} from 'fastify';

/** Where background work reports what failed: a request's or the app's log, or a command's output. */
export type ErrorLog = Pick<FastifyBaseLogger, 'error'>;

/** Query parameters whose values never reach the log (codes, tokens, passwords). */
const SECRET_QUERY_PARAMS = /([?&](?:otp|code|token|password|refresh_token|access_token|secret)=)[^&]*/gi;

/** Path segments that are secrets themselves: an invitation code accepted by its URL. */
const SECRET_PATH_SEGMENTS = /(\/invitations\/)[^/?#]+/gi;

export function redactUrl(url: string): string {
  return url.replace(SECRET_QUERY_PARAMS, '$1[redacted]').replace(SECRET_PATH_SEGMENTS, '$1[redacted]');
}

/** `json` for machines (production); `pretty` for people reading a terminal (development). */
export type LogFormat = 'json' | 'pretty';

export function loggerOptions(level: string, format: LogFormat = 'json'): FastifyServerOptions['logger'] {
  const pretty = format === 'pretty' && level !== 'silent';
  return {
    level,
    ...(pretty
      ? {
          transport: {
            target: 'pino-pretty',
            options: { singleLine: true, translateTime: 'HH:MM:ss', ignore: 'pid,hostname' },
          },
        }
      : {}),
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
 */
export class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const url = redactUrl(request.url);
    const ms = Math.round(reply.elapsedTime * 10) / 10;
    const line = { method: request.method, url, status: reply.statusCode, ms };
    const text = `${request.method} ${url} ${reply.statusCode} ${ms} ms`;
    if (error) request.log.error({ ...line, err: error }, text);
    else if (reply.statusCode >= 500) request.log.error(line, text);
    else request.log.info(line, text);
  }
}
