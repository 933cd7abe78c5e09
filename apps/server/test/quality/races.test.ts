import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grant, signUpByMobile } from '../helpers/accounts.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Refresh tokens used at once (security.md: they rotate on every use; reuse of a spent one revokes
 * the whole family). The other races of security.md live with their features and run on both
 * databases like this file: checkout callbacks (premium/activation-once), invitation accepts
 * (family/seat-limit), voucher redemptions and guesses (vouchers/redeem).
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const refresh = (token: string) => grant(t, { grant_type: 'refresh_token', refresh_token: token });

describe('one refresh token used many times at once', () => {
  it('rotates exactly once, and the reuse ends the whole family', async () => {
    const user = await signUpByMobile(t);
    const answers = await Promise.all(Array.from({ length: 12 }, () => refresh(user.refresh_token)));
    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    for (const answer of answers.filter((each) => each.statusCode !== 200)) {
      expect(answer.statusCode).toBe(400);
      expect(answer.json()).toMatchObject({ error: 'invalid_grant' });
    }
    // The reuse revoked the family, so the pair the one winner received is dead too.
    const winner = answers.find((answer) => answer.statusCode === 200)?.json() as { refresh_token: string };
    expect((await refresh(winner.refresh_token)).statusCode).toBe(400);
    expect((await refresh(user.refresh_token)).statusCode).toBe(400);
  });

  it('two sessions of one user do not revoke each other', async () => {
    const user = await signUpByMobile(t);
    t.clock.advance(31_000);
    const other = await signUpByMobile(t, user.msisdn);
    const [first, second] = await Promise.all([refresh(user.refresh_token), refresh(other.refresh_token)]);
    expect(first.statusCode).toBe(200);
    expect(second.statusCode).toBe(200);
    expect((await refresh(first.json().refresh_token)).statusCode).toBe(200);
    expect((await refresh(second.json().refresh_token)).statusCode).toBe(200);
  });
});
