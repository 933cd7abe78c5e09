import { OTP_MAX_WRONG_TRIES, OTP_RESULT } from '@tunes/shared/accounts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { grant, requestOtp, validateOtp } from '../helpers/accounts.js';
import { createUser, randomMsisdn, STORE } from '../helpers/factories.js';
import { createTestApp, type TestApp, testDatabaseKind } from '../helpers/test-app.js';

/**
 * The attacks of the security review, each fired as a burst: hundreds of requests at once must
 * be judged exactly like the same requests in a row (security.md). Runs on PGlite and PostgreSQL.
 */
const SENDS_PER_CLIENT = 10;
const SMS_BUDGET = 25;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    SENDS_PER_CLIENT_HOURLY: String(SENDS_PER_CLIENT),
    SMS_HOURLY_BUDGET: String(SMS_BUDGET),
  });
});
afterAll(async () => {
  await t.close();
});
beforeEach(() => {
  // Every case starts in a fresh hour, after every window of the one before.
  t.clock.advance(2 * 3_600_000);
});

let nextAddress = 0;
/** A client address of its own for each caller, so budgets per client do not mix between cases. */
const freshAddress = () => {
  nextAddress++;
  return `10.${(nextAddress >> 16) & 255}.${(nextAddress >> 8) & 255}.${nextAddress & 255}`;
};

const sendCode = (msisdn: string, address: string) => requestOtp(t, { msisdn, language: 'en' }, address);
const grantByCode = (msisdn: string, code: string, address: string) =>
  grant(t, { grant_type: 'msisdn', msisdn, code }, address);

const outboxFor = (to: string) =>
  t.db.selectFrom('outbox_messages').select(['code']).where('recipient', '=', to).execute();

/** Every four-digit code, with `last` moved to the end (as a burst that reaches it last). */
const everyCodeEndingWith = (last: string) => [
  ...Array.from({ length: 10_000 }, (_, n) => String(n).padStart(4, '0')).filter((code) => code !== last),
  last,
];

/**
 * The whole code space where the guesses can race (PostgreSQL's pool runs them side by side). PGlite
 * runs one transaction at a time, so there a burst proves the lock's count, not its atomicity: 1,000
 * guesses, the right code last, prove it as well as 10,000 and cost a tenth of the time.
 */
const CODE_BURST = testDatabaseKind === 'postgres' ? 10_000 : 1_000;

describe('one-time codes under a burst', () => {
  it(`gives no token to a burst of ${CODE_BURST.toLocaleString('en')} codes, the right one last, for a registered number`, async () => {
    const msisdn = randomMsisdn();
    await createUser(t.db, { phone_number: msisdn, username: msisdn });
    const address = freshAddress();
    expect((await sendCode(msisdn, address)).statusCode).toBe(200);
    const [sent] = await outboxFor(msisdn);
    const code = sent?.code ?? '';

    const guesses = everyCodeEndingWith(code).slice(-CODE_BURST);
    expect(guesses.at(-1)).toBe(code);
    const answers = await Promise.all(guesses.map((guess) => grantByCode(msisdn, guess, address)));
    expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(0);
    // Wrong code, or (on a PostgreSQL pool this burst outruns) an honest "try again shortly".
    const statuses = new Set(answers.map((answer) => answer.statusCode));
    expect([...statuses].every((status) => status === 403 || status === 503)).toBe(true);
    expect(statuses.has(403)).toBe(true);
    // Each 403 is a judged guess (wrong, or refused as locked). When the pool answered most of the
    // burst 503 (a loaded machine), fewer than OTP_MAX_WRONG_TRIES may have been judged: the rest
    // are taken in a row, so the lock is proven however many the burst reached.
    const judged = answers.filter((answer) => answer.statusCode === 403).length;
    const wrong = code === '0000' ? '0001' : '0000';
    for (let tries = judged; tries < OTP_MAX_WRONG_TRIES; tries++) {
      expect((await grantByCode(msisdn, wrong, address)).statusCode).toBe(403);
    }
    // The code is locked: even the right one no longer signs in.
    expect((await grantByCode(msisdn, code, address)).statusCode).toBe(403);
  }, 300_000);

  it('judges at most 5 of 500 guesses sent at once', async () => {
    const email = `burst-${Date.now()}@example.mn`;
    const address = freshAddress();
    const sent = await requestOtp(t, { email, language: 'en' }, address);
    expect(sent.statusCode).toBe(200);
    const [message] = await outboxFor(email);
    const code = message?.code ?? '';
    const guesses = everyCodeEndingWith(code).slice(0, 500);
    expect(guesses).not.toContain(code);

    const answers = await Promise.all(guesses.map((otp) => validateOtp(t, { email, otp }, address)));
    const results = answers.map((answer) => answer.json().error as string);
    expect(results.filter((result) => result === OTP_RESULT.wrongCode)).toHaveLength(OTP_MAX_WRONG_TRIES);
    expect(results.filter((result) => result === OTP_RESULT.tooManyTries)).toHaveLength(
      500 - OTP_MAX_WRONG_TRIES,
    );
  });

  it('sends one code for 20 requests at once for one number', async () => {
    const msisdn = randomMsisdn();
    const answers = await Promise.all(Array.from({ length: 20 }, () => sendCode(msisdn, freshAddress())));
    expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(1);
    const refused = answers.filter((answer) => answer.statusCode === 429);
    expect(refused).toHaveLength(19);
    for (const answer of refused) expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
    expect(await outboxFor(msisdn)).toHaveLength(1);
  });

  it('lets one client address have codes sent to at most its free hourly budget of recipients without a challenge', async () => {
    const address = freshAddress();
    const numbers = Array.from({ length: 40 }, () => randomMsisdn());
    const answers = await Promise.all(numbers.map((msisdn) => sendCode(msisdn, address)));
    expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(SENDS_PER_CLIENT);
    // The rest are asked to solve a challenge (accounts/shared-address.test.ts goes on from here).
    const refused = answers.find((answer) => answer.statusCode === 429);
    expect(refused?.json()).toMatchObject({
      error: 'too_many_requests',
      reason: 'challenge_required',
      message: 'Many codes were requested from your network. Solve the challenge to get yours.',
    });
    const sent = await t.db
      .selectFrom('outbox_messages')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('recipient', 'in', numbers)
      .executeTakeFirstOrThrow();
    expect(Number(sent.count)).toBe(SENDS_PER_CLIENT);
  });

  it('stops text messages at the hourly site budget, whatever the number of addresses', async () => {
    const numbers = Array.from({ length: SMS_BUDGET * 2 }, () => randomMsisdn());
    const answers = await Promise.all(numbers.map((msisdn) => sendCode(msisdn, freshAddress())));
    expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(SMS_BUDGET);
    expect(answers.find((answer) => answer.statusCode === 429)?.json()).toMatchObject({
      message: 'We cannot send text messages right now. Try again later or sign in by e-mail.',
    });
    // E-mail codes are not held back by the SMS budget.
    const email = await requestOtp(t, { email: `after-budget-${Date.now()}@example.mn` }, freshAddress());
    expect(email.statusCode).toBe(200);
  });
});

describe('password reset tokens under a burst', () => {
  it('tries at most 20 random tokens from one address, looking each up before any hashing', async () => {
    const address = freshAddress();
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, n) =>
        t.app.inject({
          method: 'POST',
          url: '/api/users/reset-password',
          headers: STORE,
          payload: { Token: `random-token-${n}-${'x'.repeat(30)}`, Password: 'new-secret' },
          remoteAddress: address,
        }),
      ),
    );
    expect(answers.filter((answer) => answer.statusCode === 400)).toHaveLength(20);
    expect(answers.filter((answer) => answer.statusCode === 429)).toHaveLength(180);
  });
});

describe('long input', () => {
  /** An address as long as the body limit allows, shaped to make a backtracking pattern work. */
  const longEmail = `${'a'.repeat(100)}@${'a.'.repeat(30_000)}`;

  // Refused by its length before any pattern sees it (emailSchema's `abort`; validation.test.ts
  // shows the pattern never runs on such a value), so the work is linear in the input, not timed.
  it('refuses a 60 KB e-mail as invalid, naming the field, on every call that takes one', async () => {
    const user = await createUser(t.db);
    const auth = await t.authHeader(user.id);
    const calls = [
      { method: 'POST', url: '/api/users/forgot-password', payload: { Email: longEmail } },
      {
        method: 'POST',
        url: '/api/users/register',
        payload: { Email: longEmail, Password: 'secret-1', Country: 'MN', Otp: '1234' },
      },
      { method: 'POST', url: '/api/feedback', payload: { name: 'A', email: longEmail, feedback: 'Hi' } },
      { method: 'PATCH', url: '/api/users/me/details', payload: { Email: longEmail }, auth: true },
    ] as const;
    for (const call of calls) {
      const answer = await t.app.inject({
        method: call.method,
        url: call.url,
        headers: { ...STORE, ...('auth' in call ? auth : {}) },
        payload: call.payload,
        remoteAddress: freshAddress(),
      });
      expect(answer.statusCode, call.url).toBe(400);
      expect(answer.json().field, call.url).toMatch(/email/i);
    }
  });
});
