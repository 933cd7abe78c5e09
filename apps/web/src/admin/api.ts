import type { Operator, OperatorRole } from '@tunes/shared/console';
import type { TFunction } from 'i18next';

/**
 * The console's one way to call `/api/admin/*` (docs/console-api.md): the session is the
 * `tunes_op` cookie, every call carries the console header (the server's CSRF check), and a 401
 * on a signed-in page ends the session here: the console goes to sign-in with a message.
 */

export type Role = OperatorRole;
export type { Operator };

export interface Me {
  operator: Operator;
  session: { expiresAt: string; idleExpiresAt: string };
}

/** A failed call: the status (0 when no answer came), the API's code and the input it names. */
export class ConsoleError extends Error {
  override name = 'ConsoleError';
  constructor(
    readonly status: number,
    readonly code: string,
    readonly field: string | undefined,
    serverMessage: string,
  ) {
    super(serverMessage);
  }
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

interface CallOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  json?: unknown;
  /** Raw bytes (an image upload) sent with their own type. */
  file?: File;
  query?: Record<string, string | number | undefined>;
  /** A 401 here means wrong credentials, not an ended session (sign-in, set-up). */
  public?: boolean;
}

export async function adminApi<T>(path: string, options: CallOptions = {}): Promise<T> {
  const url = new URL(`/api/admin${path}`, location.origin);
  for (const [key, value] of Object.entries(options.query ?? {})) {
    if (value !== undefined && value !== '') url.searchParams.set(key, String(value));
  }
  const headers: Record<string, string> = { Accept: 'application/json', 'X-Tunes-Console': '1' };
  let body: BodyInit | undefined;
  if (options.file) {
    headers['Content-Type'] = options.file.type;
    body = options.file;
  } else if (options.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.json);
  }
  let response: Response;
  try {
    response = await fetch(url.pathname + url.search, {
      method: options.method ?? 'GET',
      headers,
      body,
      credentials: 'same-origin',
    });
  } catch (error) {
    throw new ConsoleError(0, 'network_error', undefined, String(error));
  }
  lastCallAt = Date.now();
  const text = await response.text();
  let data: Record<string, unknown> = {};
  try {
    data = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    data = { error: 'invalid_response', message: text.slice(0, 200) };
  }
  if (!response.ok) {
    if (response.status === 401 && !options.public) sessionEnded();
    throw new ConsoleError(
      response.status,
      typeof data.error === 'string' ? data.error : String(response.status),
      typeof data.field === 'string' ? data.field : undefined,
      typeof data.message === 'string' ? data.message : '',
    );
  }
  return data as T;
}

const KNOWN_CODES = [
  'invalid_credentials',
  'too_many_requests',
  'setup_link_invalid',
  'invalid_totp',
  'forbidden',
  'unauthorized',
  'not_found',
  'payload_too_large',
  'unsupported_media_type',
  'too_many_cards',
  'not_paid',
  'already_refunded',
  'not_refundable',
  'refund_in_progress',
  'refund_too_large',
  'qpay_whole_only',
  'gateway_error',
  'operator_exists',
  'cannot_change_self',
  'extension_cap',
  'network_error',
  'conflict',
] as const;
type KnownCode = (typeof KNOWN_CODES)[number];
const isKnown = (code: string): code is KnownCode => (KNOWN_CODES as readonly string[]).includes(code);

/** What the operator reads for a failure, in the console's language. */
export function errorText(error: unknown, t: TFunction<'admin'>): string {
  if (!(error instanceof ConsoleError)) return t('errors.generic');
  if (isKnown(error.code)) return t(`errors.${error.code}`);
  if (error.status === 400) {
    return error.field
      ? t('errors.bad_field', { field: error.field, message: error.message })
      : t('errors.bad_request', { message: error.message });
  }
  if (error.status === 404) return t('errors.not_found');
  if (error.status === 409) return t('errors.conflict');
  return t('errors.generic');
}
