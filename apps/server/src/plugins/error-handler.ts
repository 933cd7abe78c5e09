import { ERROR_CODES, type ErrorBody } from '@tunes/shared/errors';
import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError } from '../lib/errors.js';

const CODE_BY_STATUS: Record<number, string> = {
  400: ERROR_CODES.badRequest,
  401: ERROR_CODES.unauthorized,
  403: ERROR_CODES.forbidden,
  404: ERROR_CODES.notFound,
  409: ERROR_CODES.conflict,
  413: ERROR_CODES.payloadTooLarge,
  415: ERROR_CODES.unsupportedMediaType,
  429: ERROR_CODES.tooManyRequests,
  503: ERROR_CODES.unavailable,
};

/** Connection-level failures of any driver: the database is down, not the request wrong. */
const DATABASE_DOWN = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  // A write to a connection the server has just closed (a cut under load).
  'EPIPE',
  'ETIMEDOUT',
  '57P01',
  '57P03',
  '53300',
]);

function isDatabaseDown(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && DATABASE_DOWN.has(code)) return true;
  const message = String((error as Error).message ?? '');
  // The last two: the process is shutting down (PGlite closed, Kysely destroyed).
  return /Connection terminated|timeout exceeded when trying to connect|PGlite is closed|driver has already been destroyed/i.test(
    message,
  );
}

/**
 * One error path for the whole API (api.md): every failure leaves as `{ error, message, … }`
 * with a fitting status. Bad input is a 400 naming the field; 5xx details stay in the log.
 */
export const errorHandler = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      if (error.statusCode >= 500) request.log.error({ err: error }, error.message);
      const body: ErrorBody = { error: error.code, message: error.message, ...error.extra };
      return reply.code(error.statusCode).headers(error.headers).send(body);
    }

    if (hasZodFastifySchemaValidationErrors(error)) {
      const [first] = error.validation;
      const location = error.validationContext ?? 'request';
      const field = first?.instancePath.replace(/^\//, '').replaceAll('/', '.') || location;
      const reason = first?.message ?? 'is invalid';
      const body: ErrorBody = {
        error: ERROR_CODES.badRequest,
        message: `Invalid ${location}: ${field} ${reason.startsWith('validation.') ? `(${reason})` : reason}`,
        field,
      };
      return reply.code(400).send(body);
    }

    const status = typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (status >= 400 && status < 500) {
      const body: ErrorBody = {
        error: CODE_BY_STATUS[status] ?? ERROR_CODES.badRequest,
        message: error.message || 'The request could not be processed.',
      };
      return reply.code(status).send(body);
    }

    if (isDatabaseDown(error)) {
      request.log.error({ err: error }, 'database unavailable');
      const body: ErrorBody = {
        error: ERROR_CODES.unavailable,
        message: 'The service is temporarily unavailable. Please try again shortly.',
      };
      return reply.code(503).header('retry-after', '5').send(body);
    }

    request.log.error({ err: error }, 'unhandled error');
    const body: ErrorBody = { error: ERROR_CODES.internal, message: 'Something went wrong on our side.' };
    return reply.code(500).send(body);
  });
});
