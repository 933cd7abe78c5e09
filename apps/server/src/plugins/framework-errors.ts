import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { API_ERROR_CODES, type ApiErrorCode } from '@tunes/shared/error-codes';
import type { ErrorBody } from '@tunes/shared/errors';
import type { FastifyError, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import { type SecurityHeaders, securityHeadersForUrl } from './security.js';

/**
 * Answers for what fails before a route runs, in the API's one error shape with the security
 * headers and a request id (api.md): malformed URLs and over-long path parameters (Fastify's
 * `frameworkErrors`), and what Node's HTTP parser refuses (`clientErrorHandler`: headers too
 * large, a bad Content-Length, a malformed request line).
 */
export function frameworkErrorOptions(
  securityHeaders: SecurityHeaders,
): Pick<FastifyServerOptions, 'frameworkErrors' | 'clientErrorHandler'> {
  return {
    frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
      const status = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 414 : 400;
      const body: ErrorBody & { error: ApiErrorCode } = {
        error: status === 414 ? API_ERROR_CODES.uriTooLong : API_ERROR_CODES.badRequest,
        message: status === 414 ? 'The request path is too long.' : 'The request URL is malformed.',
      };
      request.log.info({ code: error.code }, 'refused before routing');
      void reply
        .code(status)
        .headers(securityHeadersForUrl(securityHeaders, request.url))
        .header('x-request-id', request.id)
        .send(body);
    },

    clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket) {
      if (error.code === 'ECONNRESET' || socket.destroyed) return;
      const status =
        error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
      const body = JSON.stringify({
        error:
          status === 431
            ? API_ERROR_CODES.headersTooLarge
            : status === 408
              ? API_ERROR_CODES.requestTimeout
              : API_ERROR_CODES.badRequest,
        message:
          status === 431
            ? 'The request headers are too large.'
            : status === 408
              ? 'The request took too long to arrive.'
              : 'The request is malformed.',
      } satisfies ErrorBody & { error: ApiErrorCode });
      // The request line did not parse, so there is no URL to go by; the answer is JSON.
      const headers = {
        ...securityHeaders.api,
        'content-type': 'application/json; charset=utf-8',
        'content-length': String(Buffer.byteLength(body)),
        'x-request-id': randomUUID(),
        connection: 'close',
      };
      if (socket.writable) {
        const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
        socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${lines.join('\r\n')}\r\n\r\n${body}`);
      }
      socket.destroy(error);
    },
  };
}
