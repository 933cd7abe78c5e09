import { SEND_REFUSALS } from '@tunes/shared/send-codes';
import i18next from 'i18next';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import accounts from '@/i18n/locales/en/accounts.json';
import common from '@/i18n/locales/en/common.json';
import { i18nOptions } from '@/lib/i18n';
import { toast } from '@/lib/toast';
import { requestOtp } from './otp';

vi.mock('@/lib/toast', () => ({ toast: Object.assign(vi.fn(), { success: vi.fn(), error: vi.fn() }) }));

let answer: [status: number, body: unknown];

beforeAll(async () => {
  vi.stubGlobal('location', { origin: 'http://tunes.test', protocol: 'http:' });
  vi.stubGlobal('fetch', async () => new Response(JSON.stringify(answer[1]), { status: answer[0] }));
  await i18next.init({ ...i18nOptions('en', i18next), resources: { en: { common, accounts } } });
});

beforeEach(() => {
  vi.mocked(toast).mockClear();
  vi.mocked(toast.error).mockClear();
});

const send = () => requestOtp({ msisdn: '97688112233' }, 'en', { resendIn: 30 });

describe('requestOtp (issue 37: an error is shown once, in the form)', () => {
  it('a refused send is the form’s to show, not toasted as well', async () => {
    answer = [429, { error: 'too_many_requests', message: 'x', reason: SEND_REFUSALS.recipientLimit }];
    await expect(send()).rejects.toThrow(/Too many codes were requested for this number/);
    answer = [500, { error: 'internal', message: 'x' }];
    await expect(send()).rejects.toThrow('Failed to request OTP. Please try again.');
    expect(toast).not.toHaveBeenCalled();
    expect(toast.error).not.toHaveBeenCalled();
  });

  it("a code sent moments ago moves on to the code step with the spec's 'OTP already sent' toast", async () => {
    answer = [429, { error: 'too_many_requests', message: 'x', reason: SEND_REFUSALS.recentlySent }];
    await expect(send()).resolves.toMatchObject({ alreadySent: true });
    const toasted = [...vi.mocked(toast).mock.calls, ...vi.mocked(toast.error).mock.calls].flat();
    expect(toasted).toEqual(['OTP already sent. Please check your phone.']);
  });
});
