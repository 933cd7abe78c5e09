import { type ApiErrorCode, ERROR_CODES } from '@tunes/shared/error-codes';

/**
 * Errors a handler throws on purpose. The error handler turns each into the one error shape
 * `{ error, message, field? }` with its status; anything else is a 500 whose details stay in
 * the log. `code` is one of the API's catalogue (`@tunes/shared/error-codes`), so the server
 * cannot answer a code the site and the docs do not know.
 */
export class AppError extends Error {
  /** The `error` of the answer: a catalogue code (a sandbox's `ProviderRefusal` has its provider's). */
  readonly code: string;

  constructor(
    readonly statusCode: number,
    code: ApiErrorCode,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'AppError';
    this.code = code;
  }
}

/**
 * A refusal in a stand-in provider's own words (apps/sandboxes): its code is the provider's
 * (`duplicate_invoice`, `PAYMENT_NOTFOUND`, …), not one of the API's, answered in the same shape.
 */
export class ProviderRefusal extends AppError {
  constructor(statusCode: number, code: string, message: string, extra: Record<string, unknown> = {}) {
    super(statusCode, code as ApiErrorCode, message, extra);
    this.name = 'ProviderRefusal';
  }
}

export const badRequest = (message: string, field?: string, code: ApiErrorCode = ERROR_CODES.badRequest) =>
  new AppError(400, code, message, field ? { field } : {});

export const unauthorized = (message = 'Authentication is required.') =>
  new AppError(401, ERROR_CODES.unauthorized, message);

export const forbidden = (message = 'You may not access this resource.') =>
  new AppError(403, ERROR_CODES.forbidden, message);

export const notFound = (message = 'The requested resource does not exist.') =>
  new AppError(404, ERROR_CODES.notFound, message);

export const conflict = (message: string, code: ApiErrorCode = ERROR_CODES.conflict) =>
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
