import { describe, expect, it } from 'vitest';
import { firstPath, isPagePath } from './router';

describe('routes match exactly as product.md §2 lists them', () => {
  it('finds every listed page', () => {
    for (const path of [
      '/',
      '/premium',
      '/invite',
      '/profile',
      '/profile-edit',
      '/success',
      '/failed',
      '/help',
      '/help/faq',
      '/help/tos',
      '/login',
      '/contact',
      '/phoneauth',
      '/reset-password',
      '/receipts/INV-1',
    ])
      expect(isPagePath(path), path).toBe(true);
  });

  it('takes no other case, trailing slash or extra segment for a page', () => {
    for (const path of [
      '/HELP/TOS',
      '/Premium',
      '/premium/',
      '/help/',
      '/help/faq/',
      '/receipts/',
      '/receipts/a/b',
      '/no/such/page',
      '//',
    ])
      expect(isPagePath(path), path).toBe(false);
  });
});

describe('the first page a visitor sees', () => {
  it("is / for a signed-in listener's page, without loading that page", () => {
    expect(firstPath('/profile')).toBe('/');
    expect(firstPath('/profile-edit')).toBe('/');
  });

  it('is the page asked for anywhere else', () => {
    for (const path of ['/', '/premium', '/invite', '/success', '/login', '/no-such-page'])
      expect(firstPath(path), path).toBe(path);
  });
});
