import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api-error';
import { adminApi, onSessionEnded } from './api';
import { consoleI18nOptions, i18n } from './i18n';

interface Sent {
  url: string;
  init: RequestInit;
}
const sent: Sent[] = [];
const answers: Response[] = [];

beforeAll(async () => {
  vi.stubGlobal('location', { origin: 'http://tunes.test' });
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    sent.push({ url, init });
    const next = answers.shift();
    if (!next) throw new Error('no answer prepared');
    return next;
  });
  await i18n.init(consoleI18nOptions('en', i18n, true));
});
// The unit files after this one share its globals (vitest.config.ts: no isolation).
afterAll(() => {
  vi.unstubAllGlobals();
});
beforeEach(() => {
  sent.length = 0;
  answers.length = 0;
});

const answer = (status: number, body: unknown) =>
  answers.push(new Response(status === 204 ? null : JSON.stringify(body), { status }));
const headersOf = (call: Sent | undefined) => (call?.init.headers ?? {}) as Record<string, string>;

async function failure(call: Promise<unknown>): Promise<ApiError> {
  try {
    await call;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('the call did not fail');
}

describe('the console’s calls through the site’s API client', () => {
  it('carry the console header and the cookie, with the query and JSON body', async () => {
    answer(200, { users: [] });
    await adminApi('/users', { query: { q: '99112233', skip: undefined } });
    answer(200, { ok: true });
    await adminApi('/content/landing', { method: 'PUT', json: { a: 1 } });
    expect(sent[0]?.url).toBe('/api/admin/users?q=99112233');
    expect(headersOf(sent[0])['X-Tunes-Console']).toBe('1');
    expect(sent[0]?.init.credentials).toBe('same-origin');
    expect(sent[1]?.init.method).toBe('PUT');
    expect(headersOf(sent[1])['Content-Type']).toBe('application/json');
    expect(sent[1]?.init.body).toBe('{"a":1}');
  });

  it('send an image as its own bytes and type', async () => {
    answer(201, { url: '/api/content/uploads/x.png' });
    const file = new Blob([new Uint8Array([137, 80, 78, 71])], { type: 'image/png' });
    await adminApi('/content/images', { method: 'POST', file });
    expect(headersOf(sent[0])['Content-Type']).toBe('image/png');
    expect(sent[0]?.init.body).toBe(file);
  });

  it('read a failure in the console’s words; a 400 in the server’s sentence, on its field', async () => {
    answer(409, { error: 'operator_exists', message: 'exists' });
    const exists = await failure(adminApi('/operators', { method: 'POST', json: {} }));
    expect(exists.message).toBe('An operator with this e-mail already exists.');
    answer(400, { error: 'bad_request', message: 'The expiry must be in the future.', field: 'expiresAt' });
    const bad = await failure(adminApi('/vouchers/batches', { method: 'POST', json: {} }));
    expect([bad.message, bad.field]).toEqual(['The expiry must be in the future.', 'expiresAt']);
    answer(500, { error: 'internal_error', message: 'boom' });
    expect((await failure(adminApi('/dashboard'))).message).toBe('Something went wrong. Try again.');
  });

  it('end the session on a 401 of a signed-in page, not of sign-in', async () => {
    const ended = vi.fn();
    const stop = onSessionEnded(ended);
    try {
      answer(401, { error: 'invalid_credentials', message: 'no' });
      const wrong = await failure(adminApi('/session', { method: 'POST', json: {}, public: true }));
      expect(wrong.message).toBe('The e-mail, password or code is not right.');
      expect(ended).not.toHaveBeenCalled();
      answer(401, { error: 'unauthorized', message: 'Sign in to the console.' });
      await failure(adminApi('/me'));
      expect(ended).toHaveBeenCalledTimes(1);
    } finally {
      stop();
    }
  });
});
