import { type ApiErrorCode, ERROR_CODES, type ErrorCode } from '@tunes/shared/error-codes';
import type { ErrorBody } from '@tunes/shared/errors';
import type { SendRefusal } from '@tunes/shared/send-codes';
import { type MessageKey, translate } from './i18n';
import { toast } from './toast';

/**
 * How the site's API calls fail (decision 0009): the ApiError every failure becomes, the texts
 * the user reads for it and the toasts. The transport and the session are in `api-client.ts`.
 */

/** `error` of an ApiError when no answer came (offline, DNS, connection reset). */
export const NETWORK_ERROR = 'network_error';

/** What the user reads for each shared error code (api.md) when a call says nothing more. */
const SHARED_MESSAGES: Record<ErrorCode | typeof NETWORK_ERROR, MessageKey> = {
  [ERROR_CODES.badRequest]: 'errors.bad-request',
  [ERROR_CODES.unauthorized]: 'errors.unauthorized',
  [ERROR_CODES.forbidden]: 'errors.forbidden',
  [ERROR_CODES.notFound]: 'errors.not-found',
  [ERROR_CODES.conflict]: 'errors.conflict',
  [ERROR_CODES.tooManyRequests]: 'errors.too-many-requests',
  [ERROR_CODES.payloadTooLarge]: 'errors.bad-request',
  [ERROR_CODES.unsupportedMediaType]: 'errors.bad-request',
  [ERROR_CODES.unavailable]: 'errors.unavailable',
  [ERROR_CODES.internal]: 'errors.generic',
  [NETWORK_ERROR]: 'errors.network',
};

/** For codes of one feature (e.g. the grant's "604") that a call does not name: by status. */
const MESSAGES_BY_STATUS: Record<number, MessageKey> = {
  400: 'errors.bad-request',
  401: 'errors.unauthorized',
  403: 'errors.forbidden',
  404: 'errors.not-found',
  409: 'errors.conflict',
  429: 'errors.too-many-requests',
  503: 'errors.unavailable',
};

/**
 * A call's own texts for its failures (product.md §8): looked up by the body's `reason` (which
 * limit refused, e.g. a send's, security.md), then its `error` code, then the HTTP status, then
 * `other`. `'raw'` shows the server's own message (product.md §8, silent login).
 */
export type ErrorMessages = { readonly [Key in MessageFor]?: MessageKey | 'raw' };

/** The toasts of a call's failures, looked up as its texts; `false` toasts none for that failure. */
export type ToastMessages = { readonly [Key in MessageFor]?: MessageKey | 'raw' | false };

/**
 * What a call's texts are keyed by: a catalogue code (`@tunes/shared/error-codes`, so the site
 * never waits for a code the server does not send), a send's `reason`, a status, or `other`.
 */
type MessageFor = ApiErrorCode | SendRefusal | typeof NETWORK_ERROR | `${number}` | 'other';

/** How a call's failures reach the user; by default the shared codes' texts and no toast. */
export interface CallErrors {
  /** What `ApiError.message` says; forms show it in their alert. */
  messages?: ErrorMessages;
  /** Toast the failure: 'message' toasts the message; a map only the failures it names, in its texts. */
  toast?: 'message' | ToastMessages;
}

/** A failed call: its status (0 when no answer came), the one error body (api.md), and the
 * translated text the user should read as `message`. */
export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    readonly status: number,
    readonly body: Partial<ErrorBody> & Record<string, unknown>,
    message: string | (() => string),
    /** Seconds the server asked to wait (429 `Retry-After`). */
    readonly retryAfter?: number,
  ) {
    super(typeof message === 'string' ? message : undefined);
    if (typeof message === 'function') {
      // Translated when read: a first page's call may fail before its catalogue has loaded.
      let text: string | undefined;
      Object.defineProperty(this, 'message', {
        get: () => {
          text ??= message();
          return text;
        },
        configurable: true,
      });
    }
  }
  /** The API's error code: `error` of the body (e.g. "604" for grant errors). */
  get code(): string | undefined {
    return typeof this.body.error === 'string' ? this.body.error : undefined;
  }
  /** The input a 400 names (`field` of the body). */
  get field(): string | undefined {
    return typeof this.body.field === 'string' ? this.body.field : undefined;
  }
  /** Which limit refused, where the API names it (`reason` of the body, e.g. a send's). */
  get reason(): string | undefined {
    return typeof this.body.reason === 'string' ? this.body.reason : undefined;
  }
}

/** Whether `error` is a failed call, optionally with this status or error code (of the catalogue). */
export function isApiError(
  error: unknown,
  match: { status?: number; code?: ApiErrorCode | typeof NETWORK_ERROR } = {},
): error is ApiError {
  return (
    error instanceof ApiError &&
    (match.status === undefined || error.status === match.status) &&
    (match.code === undefined || error.code === match.code)
  );
}

function lookUp<T>(
  messages: { readonly [key: string]: T } | undefined,
  status: number,
  body: Partial<ErrorBody> & Record<string, unknown>,
): T | undefined {
  if (!messages) return undefined;
  const named = [body.reason, body.error].find(
    (key): key is string => typeof key === 'string' && messages[key] !== undefined,
  );
  return named !== undefined ? messages[named] : (messages[String(status)] ?? messages.other);
}

function serverMessage(body: Partial<ErrorBody>): string | undefined {
  return body.message ?? body.error_description;
}

/** The text of a failure: the call's own, else the shared code's, else by status (read lazily). */
function messageOf(status: number, body: Partial<ErrorBody>, errors: CallErrors): string | (() => string) {
  const code = typeof body.error === 'string' ? body.error : undefined;
  const own = lookUp(errors.messages, status, body);
  // 'raw' needs an answer: without one (status 0) the network text says more than the browser's.
  const raw = own === 'raw' && status > 0 ? serverMessage(body) : undefined;
  if (raw) return raw;
  const key =
    (own !== 'raw' ? own : undefined) ??
    SHARED_MESSAGES[code as ErrorCode] ??
    MESSAGES_BY_STATUS[status] ??
    'errors.generic';
  return () => translate(key);
}

/** Toasts a failure when the call asks for it; "wait and retry" (429) as a notice, not an error. */
function notify(error: ApiError, errors: CallErrors) {
  if (!errors.toast) return;
  const own = errors.toast === 'message' ? undefined : lookUp(errors.toast, error.status, error.body);
  if (errors.toast !== 'message' && !own) return;
  const text = own && own !== 'raw' ? translate(own) : error.message;
  if (error.status === 429) toast(text);
  else toast.error(text);
}

/** The ApiError of a failed call, in the call's texts, toasted when the call asks for it. */
export function apiFailure(
  status: number,
  body: Partial<ErrorBody> & Record<string, unknown>,
  errors: CallErrors,
  retryAfter?: number,
) {
  const error = new ApiError(status, body, messageOf(status, body, errors), retryAfter);
  notify(error, errors);
  return error;
}

/** The text to show for a failure caught in a form: the call's own, or the generic one. */
export function userMessage(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  console.error(error);
  return translate('errors.generic');
}
