import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { lastMessage, requestOtp, signUpByMobile } from '../helpers/accounts.js';
import { consoleCall, signedInOperator } from '../helpers/console.js';
import { bearer as bearerOf, randomMsisdn } from '../helpers/factories.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * security.md: a listener's data export and the console's list of their messages hold what was
 * sent to their account, matched by account and not by address, so a number that changed hands
 * does not show its previous holder's messages.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});
beforeEach(() => {
  t.clock.advance(61 * 60_000); // past every resend window and hourly limit of the case before
});

type Tokens = { access_token: string; sub: string };
const bearer = (tokens: Tokens) => bearerOf(tokens.access_token);

async function exportedTexts(tokens: Tokens) {
  const answer = await t.app.inject({ method: 'GET', url: '/api/users/me/export', headers: bearer(tokens) });
  expect(answer.statusCode, answer.body).toBe(200);
  return (answer.json() as { messages: { text: string }[] }).messages.map((message) => message.text);
}

async function consoleTexts(userId: string) {
  const support = await signedInOperator(t, 'support');
  const answer = await consoleCall(t, support.cookie, 'GET', `/api/admin/users/${userId}`);
  expect(answer.statusCode, answer.body).toBe(200);
  return (answer.json() as { messages: { text: string }[] }).messages.map((message) => message.text);
}

async function signInCodeTo(msisdn: string) {
  t.clock.advance(31_000);
  expect((await requestOtp(t, { msisdn, language: 'en' })).statusCode).toBe(200);
}

/** A message written before messages named their account (no `user_id`), to `msisdn`. */
async function messageOfOld(msisdn: string, text: string) {
  await t.db
    .insertInto('outbox_messages')
    .values({ channel: 'sms', recipient: msisdn, text, created_at: t.clock.now() })
    .execute();
}

describe('the messages of an account', () => {
  it("a number that changed hands: the new holder's export and console list show none of the previous holder's", async () => {
    const number = randomMsisdn();
    const previous = await signUpByMobile(t, number);
    await signInCodeTo(number);
    // The previous holder moves to another number; the old one is told, and is then free.
    const moved = randomMsisdn();
    const headers = bearer(previous);
    await t.app.inject({
      method: 'POST',
      url: '/api/users/me/phone',
      headers,
      payload: { PhoneNumber: moved.slice(3), CountryCode: 976 },
    });
    const { code } = await lastMessage(t, moved);
    const confirmed = await t.app.inject({
      method: 'POST',
      url: '/api/users/me/phone/confirm',
      headers,
      payload: { Otp: code },
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    await messageOfOld(number, 'Written before messages named their account');

    t.clock.advance(31_000);
    const next = await signUpByMobile(t, number);
    await signInCodeTo(number);

    for (const texts of [await exportedTexts(next), await consoleTexts(next.sub)]) {
      expect(texts).toHaveLength(1);
      expect(texts[0]).toMatch(/^Your Tunes code is /);
      expect(texts.join('\n')).not.toMatch(/ending in|Written before/);
    }
    // The previous holder keeps theirs: the sign-in code, the new number's code, the notice.
    const theirs = await exportedTexts(previous);
    expect(theirs).toHaveLength(3);
    expect(theirs.some((text) => text.includes('changed to a number ending in'))).toBe(true);
    expect(await consoleTexts(previous.sub)).toHaveLength(3);
  });

  it("a deleted account's goodbye is not the next holder's", async () => {
    const number = randomMsisdn();
    const previous = await signUpByMobile(t, number);
    await signInCodeTo(number);
    const { code } = await lastMessage(t, number);
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: '/api/users/me',
      headers: bearer(previous),
      payload: { Otp: code },
    });
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect((await lastMessage(t, number)).text).toMatch(/account and its personal data were deleted/);

    t.clock.advance(31_000);
    const next = await signUpByMobile(t, number);
    await signInCodeTo(number);
    for (const texts of [await exportedTexts(next), await consoleTexts(next.sub)]) {
      expect(texts).toHaveLength(1);
      expect(texts.join('\n')).not.toMatch(/deleted/);
    }
  });
});
