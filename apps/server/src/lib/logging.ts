import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';

/** Where background work reports what failed: a request's or the app's log, or a command's output. */
export type ErrorLog = Pick<FastifyBaseLogger, 'error'>;

/** Query parameters whose values never reach the log (codes, tokens, passwords). */
const SECRET_QUERY_PARAMS = /([?&](?:otp|code|token|password|refresh_token|access_token|secret)=)[^&]*/gi;

/** Path segments that are secrets themselves: an invitation code accepted by its URL. */
const SECRET_PATH_SEGMENTS = /(\/invitations\/)[^/?#]+/gi;

export function redactUrl(url: string): string {
  return url.replace(SECRET_QUERY_PARAMS, '$1[redacted]').replace(SECRET_PATH_SEGMENTS, '$1[redacted]');
}

export function loggerOptions(level: string): FastifyServerOptions['logger'] {
  return {
    level,
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
