import i18next from 'i18next';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import accounts from '@/i18n/locales/en/accounts.json';
import common from '@/i18n/locales/en/common.json';
import { apiRequest } from './api-client';
import { ApiError, type CallErrors } from './api-error';
import { i18nOptions } from './i18n';
import { toast } from './toast';

vi.mock('./toast', () => ({ toast: Object.assign(vi.fn(), { success: vi.fn(), error: vi.fn() }) }));

const answers: (Response | Error)[] = [];

beforeAll(async () => {
  vi.stubGlobal('location', { origin: 'http://tunes.test' });
  vi.stubGlobal('document', { cookie: '' });
  vi.stubGlobal('fetch', async () => {
    const next = answers.shift();
    if (!next) throw new Error('no answer prepared');
    if (next instanceof Error) throw next;
    return next;
  });
  await i18next.init({ ...i18nOptions('en', i18next), resources: { en: { common, accounts } } });
});

beforeEach(() => {
  answers.length = 0;
  vi.mocked(toast).mockClear();
  vi.mocked(toast.error).mockClear();
});

function answer(status: number, body: unknown, headers: Record<string, string> = {}) {
  answers.push(new Response(JSON.stringify(body), { status, headers }));
}

async function failure(errors?: CallErrors): Promise<ApiError> {
  try {
    await apiRequest('/api/anything', { errors });
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('the call did not fail');
}

const grantMessages: CallErrors = {
  messages: {
    '603': 'accounts:messages.cant-authenticate-mobile',
    403: 'accounts:messages.invalid-code',
    other: 'accounts:messages.login-failed',
  },
};

describe('the API client', () => {
  it("reads a failure in the call's own text: by error code, then by status, then the rest", async () => {
    answer(400, { error: '603', message: 'cannot authenticate' });
    expect((await failure(grantMessages)).message).toBe("Can't authenticate. Phone number not valid.");
    answer(403, { error: 'forbidden', message: 'wrong code' });
    expect((await failure(grantMessages)).message).toBe('Invalid code entered.');
    answer(500, { error: 'internal_error', message: 'Internal error' });
    expect((await failure(grantMessages)).message).toBe('Failed to login. Please try again.');
  });

  it('falls back to the text of the shared error code, then of the status', async () => {
    answer(429, { error: 'too_many_requests', message: 'slow down', retryAfter: 17 });
    const tooMany = await failure();
    expect(tooMany.message).toBe('Too many attempts. Please try again later.');
    expect(tooMany.retryAfter).toBe(17);
    answer(409, { error: 'email_in_use', message: 'taken' });
    expect((await failure()).message).toBe('This conflicts with something that already exists.');
    answer(502, { error: 'bad_gateway', message: 'upstream' });
    expect((await failure()).message).toBe('Something went wrong');
  });

  it('turns a lost connection into an ApiError with status 0 and the network text', async () => {
    answers.push(new TypeError('Failed to fetch'));
    const error = await failure();
    expect(error.status).toBe(0);
    expect(error.message).toBe("We couldn't reach the server. Check your connection and try again.");
  });

  it("shows the server's own message where the spec says so ('raw'), the network text without one", async () => {
    answer(500, { error: 'internal_error', message: 'Upstream said no.' });
    expect((await failure({ messages: { other: 'raw' } })).message).toBe('Upstream said no.');
    answers.push(new TypeError('Failed to fetch'));
    expect((await failure({ messages: { other: 'raw' } })).message).toBe(
      "We couldn't reach the server. Check your connection and try again.",
    );
  });

  it('toasts only when the call asks, in its own toast text, and a 429 as a notice', async () => {
    answer(400, { error: 'bad_request', message: 'nope' });
    await failure(grantMessages);
    expect(toast.error).not.toHaveBeenCalled();

    answer(400, { error: 'bad_request', message: 'nope' });
    await failure({ ...grantMessages, toast: 'message' });
    expect(toast.error).toHaveBeenCalledWith('Failed to login. Please try again.');

    answer(401, { error: 'unauthorized', message: 'nope' });
    const inline = await failure({
      messages: { other: 'accounts:messages.email-login-failed' },
      toast: { other: 'accounts:toast.login-failed' },
    });
    expect(inline.message).toBe('Login failed. Please check your details and try again.');
    expect(toast.error).toHaveBeenLastCalledWith('Login failed');

    answer(400, { error: 'bad_request', message: 'nope' });
    await failure({ toast: { 409: 'accounts:messages.email-in-use' } });
    expect(toast.error).toHaveBeenCalledTimes(2);

    answer(429, { error: 'too_many_requests', message: 'wait' });
    await failure({ messages: { 429: 'accounts:messages.otp-already-sent' }, toast: 'message' });
    expect(toast).toHaveBeenCalledWith('OTP already sent. Please check your phone.');
    expect(toast.error).toHaveBeenCalledTimes(2);
  });

  it("reads a refusal's reason before its code, and toasts none where the call says false", async () => {
    const errors: CallErrors = {
      messages: {
        network_limit: 'accounts:send.network-limit',
        challenge_required: 'accounts:send.challenge-required',
        429: 'accounts:messages.otp-already-sent',
      },
      toast: { network_limit: 'accounts:send.network-limit', challenge_required: false, 429: false },
    };
    answer(429, { error: 'too_many_requests', reason: 'network_limit', message: 'wait' });
    const walled = await failure(errors);
    expect(walled.reason).toBe('network_limit');
    expect(walled.message).toMatch(
      /^Too many codes were requested from your network this hour\. No code was sent\./,
    );
    expect(toast).toHaveBeenLastCalledWith(walled.message);

    vi.mocked(toast).mockClear();
    answer(429, {
      error: 'too_many_requests',
      reason: 'challenge_required',
      message: 'solve',
      challenge: {},
    });
    const asked = await failure(errors);
    expect(asked.message).toMatch(/^Many codes were requested from your network\./);
    expect(toast).not.toHaveBeenCalled();
  });

  it('names the refused field of a 400', async () => {
    answer(400, { error: 'bad_request', message: 'Invalid body: email', field: 'email' });
    const error = await failure();
    expect(error.field).toBe('email');
    expect(error.code).toBe('bad_request');
  });
});
