/**
 * Where /login is asked to start and where it returns (issue 19): `?method=email` opens the
 * E-mail side (after a password reset), `?next=/premium` comes back to the page the visitor
 * signed in from instead of /profile (product.md §4's default).
 */
export type LoginMethod = 'mobile' | 'email';

const METHOD_PARAM = 'method';
const NEXT_PARAM = 'next';

/** The address of the login page that opens on `method` and returns to `next`. */
export function loginHref({ method, next }: { method?: LoginMethod; next?: string } = {}): string {
  const query = new URLSearchParams();
  if (method && method !== 'mobile') query.set(METHOD_PARAM, method);
  if (next) query.set(NEXT_PARAM, next);
  const search = query.toString();
  return search ? `/login?${search}` : '/login';
}

/**
 * Only a path of this site, never another origin (`//host`, `/\host`, `https:`), nor /login
 * itself: a link someone else wrote cannot send the user away after signing in.
 */
export function safeReturnPath(value: string | null | undefined): string | null {
  if (!value || !/^\/(?![/\\])[A-Za-z0-9/_-]*$/.test(value)) return null;
  return value === '/login' ? null : value;
}

/**
 * The address the e-mail login form starts with: the one a password reset just set a password
 * for, handed over in the history entry's state (not in the address, which logs and bookmarks keep).
 */
export function loginEmailFromHistory(): string {
  const state: unknown = typeof window === 'undefined' ? null : window.history.state;
  const email = state && typeof state === 'object' && 'email' in state ? state.email : null;
  return typeof email === 'string' ? email : '';
}

/** What a /login address asks for: the method to open and the path to return to. */
export function readLoginQuery(search: string): { method: LoginMethod; next: string | null } {
  const query = new URLSearchParams(search);
  return {
    method: query.get(METHOD_PARAM) === 'email' ? 'email' : 'mobile',
    next: safeReturnPath(query.get(NEXT_PARAM)),
  };
}
