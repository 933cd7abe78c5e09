import i18next from 'i18next';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import accounts from '@/i18n/locales/en/accounts.json';
import common from '@/i18n/locales/en/common.json';
import { i18nOptions } from '@/lib/i18n';
import { readSession } from '@/lib/session';
import { signInByMobile } from './mobile-sign-in';

vi.mock('@/lib/toast', () => ({ toast: Object.assign(vi.fn(), { success: vi.fn(), error: vi.fn() }) }));

type Handler = (url: URL, init: RequestInit) => [status: number, body: unknown];
let handle: Handler;
const calls: string[] = [];

const token = (sub: string) =>
  `x.${Buffer.from(JSON.stringify({ sub, exp: Math.floor(Date.now() / 1000) + 3600 })).toString('base64url')}.y`;
const TOKENS = { access_token: token('user-1'), refresh_token: 'r1', token_type: 'Bearer', expires_in: 3600 };
const NUMBER = { phoneNumber: '88112233', countryCode: 976 };
/** The visitor's localStorage: emptied before each test, so each is a first visit (no grant URL kept). */
const stored = new Map<string, string>();

beforeAll(async () => {
  let cookie = '';
  vi.stubGlobal('location', { origin: 'http://tunes.test', protocol: 'http:' });
  vi.stubGlobal('document', {
    get cookie() {
      return cookie;
    },
    set cookie(value: string) {
      cookie = value.split(';')[0] ?? '';
    },
  });
  vi.stubGlobal('localStorage', {
    getItem: (key: string) => stored.get(key) ?? null,
    setItem: (key: string, value: string) => stored.set(key, value),
  });
  vi.stubGlobal('fetch', async (path: string, init: RequestInit) => {
    const url = new URL(path, 'http://tunes.test');
    calls.push(`${init.method} ${url.pathname}`);
    const [status, body] = handle(url, init);
    return new Response(JSON.stringify(body), { status });
  });
  await i18next.init({ ...i18nOptions('en', i18next), resources: { en: { common, accounts } } });
});

beforeEach(() => {
  calls.length = 0;
  stored.clear();
});

/** The API of product.md §7 for one number: the code 1234 is right; `registered` says if 604 answers. */
function api({ registered }: { registered: boolean }): Handler {
  let isRegistered = registered;
  return (url, init) => {
    if (url.pathname === '/api/users/validateotp')
      return [200, { error: url.searchParams.get('otp') === '1234' ? null : '611' }];
    if (url.pathname === '/api/application/grantUrl') return [200, { grantURL: '/api/oauth2/token' }];
    if (url.pathname === '/api/oauth2/token')
      return isRegistered
        ? [200, TOKENS]
        : [400, { error: '604', error_description: 'not registered', message: 'not registered' }];
    if (url.pathname === '/api/users/registerbymsisdn') {
      expect(JSON.parse(String(init.body))).toEqual({
        PhoneNumber: '88112233',
        CountryCode: 976,
        Token: '1234',
        Language: 'mn',
      });
      isRegistered = true;
      return [201, { UserId: 'user-1' }];
    }
    if (url.pathname === '/api/users/getlogins') return [200, [{ Type: 'Msisdn', Value: '97688112233' }]];
    return [404, { error: 'not_found', message: 'no route' }];
  };
}

describe('mobile sign-in (product.md §4)', () => {
  it("a number not registered yet (604) is registered with the same code in the site's language, then signed in", async () => {
    handle = api({ registered: false });
    const session = await signInByMobile(NUMBER, '1234', 'mn');
    expect(session).toMatchObject({ sub: 'user-1', phone: { number: '88112233', countryCode: 976 } });
    expect(readSession()?.sub).toBe('user-1');
    expect(calls).toEqual([
      'GET /api/users/validateotp',
      'GET /api/application/grantUrl',
      'POST /api/oauth2/token',
      'POST /api/users/registerbymsisdn',
      'POST /api/oauth2/token',
      'GET /api/users/getlogins',
    ]);
  });

  it('a code that does not validate signs nobody in', async () => {
    handle = api({ registered: true });
    expect(await signInByMobile(NUMBER, '9999', 'en')).toBe('wrong');
    expect(calls).toEqual(['GET /api/users/validateotp']);
  });

  it('a code locked after 5 wrong tries (613) or expired (612) is told apart from a wrong one', async () => {
    for (const [error, verdict] of [
      ['613', 'locked'],
      ['612', 'expired'],
    ] as const) {
      handle = (url) =>
        url.pathname === '/api/users/validateotp' ? [200, { error }] : api({ registered: true })(url, {});
      expect(await signInByMobile(NUMBER, '1234', 'en')).toBe(verdict);
    }
  });

  it('a grant refusing a locked code reads the locked-code message', async () => {
    handle = (url) =>
      url.pathname === '/api/oauth2/token'
        ? [403, { error: 'code_locked', error_description: 'locked', message: 'locked' }]
        : api({ registered: true })(url, {});
    await expect(signInByMobile(NUMBER, '1234', 'en')).rejects.toThrow(/this code is locked/);
  });

  it("a grant refused with 603 reads 'Can't authenticate. Phone number not valid.'", async () => {
    handle = (url) =>
      url.pathname === '/api/oauth2/token'
        ? [400, { error: '603', error_description: 'cannot authenticate' }]
        : api({ registered: true })(url, {});
    await expect(signInByMobile(NUMBER, '1234', 'en')).rejects.toThrow(
      "Can't authenticate. Phone number not valid.",
    );
  });

  it("a failed registration reads 'Registration failed…'", async () => {
    const base = api({ registered: false });
    handle = (url, init) =>
      url.pathname === '/api/users/registerbymsisdn'
        ? [409, { error: 'conflict', message: 'taken' }]
        : base(url, init);
    await expect(signInByMobile(NUMBER, '1234', 'en')).rejects.toThrow(
      'Registration failed. Please check your details and try again.',
    );
  });
});
