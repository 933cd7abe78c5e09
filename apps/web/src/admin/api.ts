import type { Operator, OperatorRole } from '@tunes/shared/console';
import { API_ERROR_CODES, type ApiErrorCode } from '@tunes/shared/error-codes';
import { apiRequestWith, type RequestOptions as CoreOptions, type SessionStrategy } from '@/lib/api-client';
import { type ErrorMessages, NETWORK_ERROR } from '@/lib/api-error';

/**
 * The console's calls to `/api/admin/*` (docs/console-api.md) through the site's one API client
 * (`lib/api-client.ts`): the session is the `tunes_op` cookie, a strategy of that client. Every
 * call carries the console header (the server's CSRF check), and a 401 on a signed-in page ends
 * the session here: the console goes to sign-in with a message. Failures are the site's
 * ApiError, read in the console's texts (`CONSOLE_MESSAGES`) with `userMessage`.
 */

export type Role = OperatorRole;
export type { Operator };

export interface Me {
  operator: Operator;
  session: { expiresAt: string; idleExpiresAt: string };
}

/** The server ends a session after this long without a call (docs/console-api.md §1). */
export const IDLE_LIMIT_MS = 30 * 60_000;

let lastCallAt = Date.now();
/** When the console last called the API: the server's idle clock restarts with each call. */
export const lastCall = () => lastCallAt;

const endedListeners = new Set<() => void>();
/** Called when the server says the session is over (401), or the idle limit passed. */
export function onSessionEnded(listener: () => void): () => void {
  endedListeners.add(listener);
  return () => endedListeners.delete(listener);
}
export function sessionEnded(): void {
  for (const listener of endedListeners) listener();
}

/** The console's codes (docs/console-api.md) in its own texts; a 400 shows the server's sentence. */
const CODES = [
  API_ERROR_CODES.invalidCredentials,
  API_ERROR_CODES.tooManyRequests,
  API_ERROR_CODES.setupLinkInvalid,
  API_ERROR_CODES.invalidTotp,
  API_ERROR_CODES.forbidden,
  API_ERROR_CODES.unauthorized,
  API_ERROR_CODES.notFound,
  API_ERROR_CODES.payloadTooLarge,
  API_ERROR_CODES.unsupportedMediaType,
  API_ERROR_CODES.tooManyCards,
  API_ERROR_CODES.notPaid,
  API_ERROR_CODES.alreadyRefunded,
  API_ERROR_CODES.notRefundable,
  API_ERROR_CODES.refundInProgress,
  API_ERROR_CODES.refundTooLarge,
  API_ERROR_CODES.qpayWholeOnly,
  API_ERROR_CODES.gatewayError,
  API_ERROR_CODES.operatorExists,
  API_ERROR_CODES.cannotChangeSelf,
  API_ERROR_CODES.extensionCap,
  API_ERROR_CODES.conflict,
] as const satisfies readonly ApiErrorCode[];
export const CONSOLE_MESSAGES: ErrorMessages = {
  ...Object.fromEntries(CODES.map((code) => [code, `admin:errors.${code}` as const])),
  [NETWORK_ERROR]: 'admin:errors.network_error',
  400: 'raw',
  404: 'admin:errors.not_found',
  409: 'admin:errors.conflict',
  other: 'admin:errors.generic',
};

/** The cookie session: the console header on every call, the idle clock, and an ended session. */
function cookieSession(isPublic: boolean): SessionStrategy {
  return {
    async call(send) {
      const response = await send({ 'X-Tunes-Console': '1' });
      lastCallAt = Date.now();
      if (response.status === 401 && !isPublic) sessionEnded();
      return response;
    },
  };
}
const signedIn = cookieSession(false);
const signingIn = cookieSession(true);

interface CallOptions extends Pick<CoreOptions, 'method' | 'json' | 'file' | 'query'> {
  /** A 401 here means wrong credentials, not an ended session (sign-in, set-up). */
  public?: boolean;
  /** Texts for this call's own failures, before the console's. */
  messages?: ErrorMessages;
}

export function adminApi<T>(path: string, options: CallOptions = {}): Promise<T> {
  const { public: isPublic, messages, ...call } = options;
  return apiRequestWith<T>(isPublic ? signingIn : signedIn, `/api/admin${path}`, {
    ...call,
    errors: { messages: { ...CONSOLE_MESSAGES, ...messages } },
  });
}
