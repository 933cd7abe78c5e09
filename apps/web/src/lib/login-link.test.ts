import { describe, expect, it } from 'vitest';
import { loginHref, readLoginQuery, safeReturnPath } from './login-link';

describe('the login link', () => {
  it('opens on E-mail after a password reset and returns to the plans from /premium', () => {
    expect(loginHref()).toBe('/login');
    expect(loginHref({ method: 'email' })).toBe('/login?method=email');
    expect(loginHref({ next: '/premium' })).toBe('/login?next=%2Fpremium');
    expect(readLoginQuery('?method=email')).toEqual({ method: 'email', next: null });
    expect(readLoginQuery('?next=%2Fpremium')).toEqual({ method: 'mobile', next: '/premium' });
  });

  it('returns only to a path of this site', () => {
    expect(safeReturnPath('/premium')).toBe('/premium');
    expect(safeReturnPath('/help/faq')).toBe('/help/faq');
    for (const unsafe of ['//evil.example', '/\\evil.example', 'https://evil.example', 'premium', '', null])
      expect(safeReturnPath(unsafe)).toBeNull();
    expect(safeReturnPath('/login')).toBeNull();
    expect(safeReturnPath('/premium?x=<script>')).toBeNull();
  });
});
