import { ERROR_CODES } from '@tunes/shared/errors';

/**
 * Errors a handler throws on purpose. The error handler turns each into the one error shape
 * `{ error, message, field? }` with its status; anything else is a 500 whose details stay in
 * the log.
 */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (message: string, field?: string, code: string = ERROR_CODES.badRequest) =>
  new AppError(400, code, message, field ? { field } : {});

export const unauthorized = (message = 'Authentication is required.') =>
  new AppError(401, ERROR_CODES.unauthorized, message);

export const forbidden = (message = 'You may not access this resource.') =>
  new AppError(403, ERROR_CODES.forbidden, message);

export const notFound = (message = 'The requested resource does not exist.') =>
  new AppError(404, ERROR_CODES.notFound, message);

export const conflict = (message: string, code: string = ERROR_CODES.conflict) =>
  new AppError(409, code, message);

export const tooManyRequests = (
  retryAfterSeconds: number,
  message = 'Too many requests. Try again later.',
  extra: Record<string, unknown> = {},
) =>
  new AppError(
    429,
    ERROR_CODES.tooManyRequests,
    message,
    { retryAfter: Math.max(1, Math.ceil(retryAfterSeconds)), ...extra },
    { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) },
  );
