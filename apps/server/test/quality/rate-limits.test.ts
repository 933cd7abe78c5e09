import { OTP_HOURLY_CAP, OTP_MAX_WRONG_TRIES } from '@tunes/shared/accounts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/modules/accounts/secrets.js';
import { grant, lastMessage, requestOtp, validateOtp } from '../helpers/accounts.js';
import { createUser, randomMsisdn } from '../helpers/factories.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * An attacker's view of the throttles of security.md: whatever the order of requests, one number
 * or address gets a bounded number of codes and guesses per hour, and password guessing is cut
 * off per account and per client address. Time moves only through the injected clock.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});
beforeEach(() => {
  // Each case starts at the top of a fresh hour, after every window of the one before.
  t.clock.set((Math.floor(t.clock.now().getTime() / 3_600_000) + 2) * 3_600_000);
});

const HOUR = 3_600_000;
/** The client address of every call that names no other. */
const CLIENT = '203.0.113.7';

/** Every four-digit code except `code`, in order. */
function* wrongCodes(code: string | null) {
  for (let n = 0; n < 10_000; n++) {
    const guess = String(n).padStart(4, '0');
    if (guess !== code) yield guess;
  }
}

describe('one-time codes under attack', () => {
  it('gives one number at most the hourly cap of codes, each with at most 5 guesses', async () => {
    const msisdn = randomMsisdn();
    let codesSent = 0;
    let guessesAnswered = 0;
    // An hour of "ask for a code, try every guess it allows, ask again as soon as allowed".
    for (let attempt = 0; attempt < 20; attempt++) {
      const sent = await requestOtp(t, { msisdn }, CLIENT);
      if (sent.statusCode === 429) {
        expect(sent.json()).toMatchObject({ error: 'too_many_requests' });
        expect(Number(sent.headers['retry-after'])).toBeGreaterThan(0);
      } else {
        expect(sent.statusCode).toBe(200);
        codesSent++;
        const { code } = await lastMessage(t, msisdn);
        const wrong = wrongCodes(code);
        for (let guess = 0; guess < OTP_MAX_WRONG_TRIES + 3; guess++) {
          const answer = await grant(
            t,
            { grant_type: 'msisdn', msisdn, code: wrong.next().value ?? '' },
            CLIENT,
          );
          expect(answer.statusCode).toBe(403);
          guessesAnswered++;
        }
        // The code is spent by the wrong guesses: even the right one no longer signs in.
        expect((await grant(t, { grant_type: 'msisdn', msisdn, code: code ?? '' }, CLIENT)).statusCode).toBe(
          403,
        );
      }
      t.clock.advance(31_000);
    }
    expect(codesSent).toBe(OTP_HOURLY_CAP);
    expect(guessesAnswered).toBeGreaterThan(0);

    // After the hour a code is sent again, and the right code signs the number up (604: unknown).
    t.clock.advance(HOUR);
    expect((await requestOtp(t, { msisdn }, CLIENT)).statusCode).toBe(200);
    const { code } = await lastMessage(t, msisdn);
    expect((await grant(t, { grant_type: 'msisdn', msisdn, code: code ?? '' }, CLIENT)).json()).toMatchObject(
      {
        error: '604',
      },
    );
  });

  it('refuses a resend within 30 s whatever address asks, with Retry-After', async () => {
    const msisdn = randomMsisdn();
    expect((await requestOtp(t, { msisdn }, '198.51.100.1')).statusCode).toBe(200);
    t.clock.advance(5_000);
    const again = await requestOtp(t, { msisdn }, '198.51.100.2');
    expect(again.statusCode).toBe(429);
    expect(Number(again.headers['retry-after'])).toBe(25);
  });

  it('caps codes per e-mail address per hour, as per number', async () => {
    const email = `cap-${Date.now()}@example.mn`;
    const statuses: number[] = [];
    for (let attempt = 0; attempt < OTP_HOURLY_CAP + 2; attempt++) {
      statuses.push(
        (await requestOtp(t, { email, otpprovider: 'email', language: 'en' }, CLIENT)).statusCode,
      );
      t.clock.advance(31_000);
    }
    expect(statuses).toEqual([...Array(OTP_HOURLY_CAP).fill(200), 429, 429]);
  });

  it('counts wrong guesses through validateotp and the token grant together', async () => {
    const msisdn = randomMsisdn();
    await requestOtp(t, { msisdn }, CLIENT);
    const { code } = await lastMessage(t, msisdn);
    const wrong = wrongCodes(code);
    for (let guess = 0; guess < OTP_MAX_WRONG_TRIES; guess++) {
      const next = wrong.next().value ?? '';
      if (guess % 2) {
        await grant(t, { grant_type: 'msisdn', msisdn, code: next }, CLIENT);
      } else {
        await validateOtp(t, { msisdn, otp: next }, CLIENT);
      }
    }
    expect((await grant(t, { grant_type: 'msisdn', msisdn, code: code ?? '' }, CLIENT)).statusCode).toBe(403);
  });
});

describe('password login throttles', () => {
  async function emailUser(password: string) {
    const email = `throttle-${Date.now()}-${Math.random().toString(36).slice(2)}@example.mn`;
    await createUser(t.db, {
      username: email,
      primary_email: email,
      password_hash: await hashPassword(password),
    });
    return email;
  }

  const passwordGrant = (username: string, password: string, address: string) =>
    grant(t, { grant_type: 'password', username, password }, address);

  it('gives one address 5 failed tries at an account, then a wait that grows; the owner elsewhere signs in', async () => {
    const email = await emailUser('right-password');
    const attacker = '198.51.100.66';
    for (let failure = 0; failure < 5; failure++) {
      expect((await passwordGrant(email, `wrong-${failure}`, attacker)).statusCode).toBe(400);
    }
    const held = await passwordGrant(email, 'right-password', attacker);
    expect(held.statusCode).toBe(429);
    expect(held.json()).toMatchObject({ error: 'too_many_requests' });
    const firstWait = Number(held.headers['retry-after']);
    expect(firstWait).toBeGreaterThan(0);
    expect(firstWait).toBeLessThanOrEqual(5 * 60);
    // The username is matched however it is written.
    expect((await passwordGrant(` ${email.toUpperCase()} `, 'right-password', attacker)).statusCode).toBe(
      429,
    );
    // A stranger's failures do not lock the owner out: from their own address they sign in.
    expect((await passwordGrant(email, 'right-password', '203.0.113.200')).statusCode).toBe(200);

    // After the short wait, five more failures earn a longer one (the hour tier).
    t.clock.advance(5 * 60_000);
    for (let failure = 0; failure < 5; failure++) {
      expect((await passwordGrant(email, `again-${failure}`, attacker)).statusCode).toBe(400);
    }
    const longer = await passwordGrant(email, 'right-password', attacker);
    expect(longer.statusCode).toBe(429);
    expect(Number(longer.headers['retry-after'])).toBeGreaterThan(5 * 60);
  });

  it('judges at most 5 of 100 wrong passwords sent at once from one address', async () => {
    const email = await emailUser('right-password');
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, guess) => passwordGrant(email, `burst-${guess}`, '198.51.100.7')),
    );
    const judged = answers.filter((answer) => answer.statusCode === 400).length;
    const refused = answers.filter((answer) => answer.statusCode === 429).length;
    expect(judged).toBe(5);
    expect(refused).toBe(95);
    expect((await passwordGrant(email, 'right-password', '198.51.100.7')).statusCode).toBe(429);
  });

  it('holds an account back after 50 failures from many addresses, however they arrive', async () => {
    const email = await emailUser('right-password');
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, guess) =>
        passwordGrant(email, `spread-${guess}`, `192.0.2.${(guess % 100) + 1}`),
      ),
    );
    expect(answers.filter((answer) => answer.statusCode === 400)).toHaveLength(50);
    expect((await passwordGrant(email, 'right-password', '203.0.113.9')).statusCode).toBe(429);
    t.clock.advance(60 * 60_000);
    expect((await passwordGrant(email, 'right-password', '203.0.113.9')).statusCode).toBe(200);
  }, 120_000); // 50 password hashes at once on 2 cores

  it('counts only failures: the right password signs in again and again', async () => {
    const email = await emailUser('right-password');
    for (let login = 0; login < 12; login++) {
      expect((await passwordGrant(email, 'right-password', '198.51.100.8')).statusCode).toBe(200);
    }
  });
});
