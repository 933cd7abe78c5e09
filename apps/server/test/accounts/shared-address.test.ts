import { randomBytes } from 'node:crypto';
import { SEND_REFUSALS, type SendChallenge } from '@tunes/shared/accounts';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import type { Challenge } from 'altcha-lib/types';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { networkOf } from '../../src/modules/notifications/send-budget.js';
import { CHALLENGE_TTL_SECONDS } from '../../src/modules/notifications/send-challenge.js';
import { requestOtp, signUpByMobile } from '../helpers/accounts.js';
import { randomMsisdn, STORE } from '../helpers/factories.js';
import { createTestApp, type TestApp, testDatabaseKind } from '../helpers/test-app.js';

/**
 * Sign-in behind a shared address (security.md "Sends", issue 37): many listeners share one
 * carrier address, so an address's free codes an hour are few, then each needs a solved
 * proof-of-work challenge, up to a hard cap no challenge passes. Bursts are judged like the same
 * requests in a row. Runs on PGlite and PostgreSQL, with the throttle on the database and, when
 * REDIS_URL is set, on Redis.
 */
const FREE = 10;
const HARD_CAP = 40;
const PREFIX_BUDGET = 6;
const SMS_BUDGET = 400;

const env = {
  SENDS_PER_CLIENT_HOURLY: String(FREE),
  SENDS_PER_CLIENT_HOURLY_MAX: String(HARD_CAP),
  SMS_PER_PREFIX_HOURLY: String(PREFIX_BUDGET),
  SMS_HOURLY_BUDGET: String(SMS_BUDGET),
  // A challenge a test solves in microseconds; the site's real one takes a phone about a second.
  SEND_CHALLENGE_COST: '1',
  SEND_CHALLENGE_MAX_TRIES: '32',
};

/** A network of its own for each case: a random IPv6 /64 (no run, and no Redis key, meets another's). */
const freshNetwork = () => `2001:db8:${randomBytes(2).toString('hex')}:${randomBytes(2).toString('hex')}`;
const addressIn = (network: string, host = 1) => `${network}::${host.toString(16)}`;

/** Numbers of one 10,000 block: they share a prefix (all but the last four digits). */
const numbersOfOneBlock = (count: number) => {
  const block = randomMsisdn().slice(0, -4);
  return Array.from({ length: count }, (_, n) => `${block}${String(n).padStart(4, '0')}`);
};

async function solve(challenge: SendChallenge): Promise<string> {
  const solution = await solveChallenge({ challenge: challenge as unknown as Challenge, deriveKey });
  if (!solution) throw new Error('the challenge was not solved');
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}

const backends: [string, Record<string, string>][] = [
  ['the database', {}],
  // A Redis database of this file's own, emptied before it runs.
  ...(process.env.REDIS_URL
    ? [
        ['Redis', { REDIS_URL: `${process.env.REDIS_URL.replace(/\/\d*$/, '')}/12` }] as [
          string,
          Record<string, string>,
        ],
      ]
    : []),
];

describe.each(backends)('sign-in codes behind a shared address, throttled on %s', (_name, backendEnv) => {
  let t: TestApp;
  beforeAll(async () => {
    if (backendEnv.REDIS_URL) {
      // Its counts outlive a run (their windows end on that run's moved clock): start clean.
      const redis = new Redis(backendEnv.REDIS_URL);
      await redis.flushdb();
      await redis.quit();
    }
    t = await createTestApp({ ...env, ...backendEnv });
  });
  afterAll(async () => {
    await t.close();
  });
  beforeEach(() => {
    // Every case starts in a fresh hour, after every window of the one before.
    t.clock.advance(2 * 3_600_000);
  });

  // PGlite runs one transaction at a time: there the database's takes cannot race, and 200
  // requests prove the count as well as 1,000 (~13 s less in CI). PostgreSQL and Redis, where they
  // can race, take the whole burst.
  const burst = !backendEnv.REDIS_URL && testDatabaseKind === 'pglite' ? 200 : 1000;

  const askCode = (msisdn: string, address: string, proof?: string) =>
    requestOtp(t, { msisdn, language: 'en', ...(proof ? { proof } : {}) }, address);

  const sentTo = async (numbers: string[]) => {
    const sent = await t.db
      .selectFrom('outbox_messages')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('recipient', 'in', numbers)
      .executeTakeFirstOrThrow();
    return Number(sent.count);
  };

  /** Spends a network's free codes, one after another; answers the next refusal's challenge. */
  async function spendFreeCodes(network: string): Promise<SendChallenge> {
    for (let n = 0; n < FREE; n++)
      expect((await askCode(randomMsisdn(), addressIn(network, n + 1))).statusCode).toBe(200);
    const refused = await askCode(randomMsisdn(), addressIn(network));
    expect(refused.json()).toMatchObject({ reason: SEND_REFUSALS.challengeRequired });
    return refused.json().challenge;
  }

  it(`sends the free codes of ${burst.toLocaleString('en')} requests at once from one address and asks the rest for a challenge`, async () => {
    const address = addressIn(freshNetwork());
    const numbers = Array.from({ length: burst }, () => randomMsisdn());
    const answers = await Promise.all(numbers.map((msisdn) => askCode(msisdn, address)));

    const sent = answers.filter((answer) => answer.statusCode === 200).length;
    expect(await sentTo(numbers)).toBe(sent);
    // Asked for a check, or (on a PostgreSQL pool this burst outruns) an honest "try again shortly".
    const outrun = answers.filter((answer) => answer.statusCode === 503);
    if (outrun.length === 0) expect(sent).toBe(FREE);
    else expect(sent).toBeLessThanOrEqual(FREE);
    const refused = answers.filter((answer) => answer.statusCode === 429);
    expect(refused.length + outrun.length + sent).toBe(burst);
    expect(refused.length).toBeGreaterThan(0);
    for (const answer of refused) {
      expect(answer.statusCode).toBe(429);
      expect(answer.json()).toMatchObject({
        // The API's 429 as it always was (DESIGN §2), its reason beside it.
        error: 'too_many_requests',
        reason: SEND_REFUSALS.challengeRequired,
        message: 'Many codes were requested from your network. Solve the challenge to get yours.',
        challenge: { parameters: { algorithm: 'PBKDF2/SHA-256' }, signature: expect.any(String) },
      });
      expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
    }

    // A listener behind that address solves the challenge and gets a code.
    const listener = randomMsisdn();
    const solved = await askCode(listener, address, await solve(refused[0]?.json().challenge));
    expect(solved.statusCode).toBe(200);
    const outbox = await t.app.inject({ method: 'GET', url: '/dev/outbox', query: { to: listener } });
    expect(outbox.json()[0].code).toMatch(/^\d{4}$/);
  }, 120_000);

  it('sends at most the hard cap from one address, however many solved challenges arrive at once', async () => {
    const network = freshNetwork();
    const challenge = await spendFreeCodes(network);
    // Forty challenges of the network's own, each solved: twice as many as the cap has left.
    const challenges = [challenge];
    while (challenges.length < 2 * (HARD_CAP - FREE)) {
      const refusal = await askCode(randomMsisdn(), addressIn(network));
      challenges.push(refusal.json().challenge);
    }
    const proofs = await Promise.all(challenges.map(solve));
    const numbers = proofs.map(() => randomMsisdn());
    const answers = await Promise.all(
      proofs.map((proof, n) => askCode(numbers[n] ?? '', addressIn(network, n + 2), proof)),
    );

    expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(HARD_CAP - FREE);
    expect(await sentTo(numbers)).toBe(HARD_CAP - FREE);
    for (const answer of answers.filter((each) => each.statusCode !== 200)) {
      expect(answer.statusCode).toBe(429);
      expect(answer.json()).toMatchObject({
        reason: SEND_REFUSALS.networkLimit,
        message: 'Too many messages were requested from your network. Try again later.',
      });
    }
    // Past the hard cap no challenge is offered: it would not help.
    const after = await askCode(randomMsisdn(), addressIn(network));
    expect(after.statusCode).toBe(429);
    expect(after.json().reason).toBe(SEND_REFUSALS.networkLimit);
    expect(after.json().challenge).toBeUndefined();
    expect(Number(after.headers['retry-after'])).toBeGreaterThan(0);
  }, 120_000);

  it('sends one code for one solved challenge, however many requests use it at once', async () => {
    const network = freshNetwork();
    const proof = await solve(await spendFreeCodes(network));
    const numbers = Array.from({ length: 100 }, () => randomMsisdn());
    const answers = await Promise.all(numbers.map((msisdn) => askCode(msisdn, addressIn(network), proof)));

    expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(1);
    expect(await sentTo(numbers)).toBe(1);
    for (const answer of answers.filter((each) => each.statusCode !== 200)) {
      expect(answer.statusCode).toBe(400);
      // Refused as used, with a new challenge to solve at once.
      expect(answer.json()).toMatchObject({ reason: SEND_REFUSALS.challengeUsed, field: 'proof' });
      expect(answer.json().challenge.signature).toEqual(expect.any(String));
    }
    // Later, too.
    expect((await askCode(randomMsisdn(), addressIn(network), proof)).json().reason).toBe(
      SEND_REFUSALS.challengeUsed,
    );
  });

  it('refuses an expired, a forged and a garbled answer, each by its own code, and sends nothing', async () => {
    const network = freshNetwork();
    const challenge = await spendFreeCodes(network);
    const proof = await solve(challenge);
    const numbers = [randomMsisdn(), randomMsisdn(), randomMsisdn()];

    const payload = JSON.parse(Buffer.from(proof, 'base64').toString());
    payload.challenge.parameters.cost = 0; // not what was signed
    const forged = await askCode(numbers[0] ?? '', addressIn(network), btoa(JSON.stringify(payload)));
    expect(forged.statusCode).toBe(400);
    expect(forged.json()).toMatchObject({
      error: 'bad_request',
      reason: SEND_REFUSALS.challengeInvalid,
      message: 'The answer to the challenge is not valid. Solve the new challenge.',
      field: 'proof',
    });
    const garbled = await askCode(numbers[1] ?? '', addressIn(network), 'not-a-proof');
    expect(garbled.json().reason).toBe(SEND_REFUSALS.challengeInvalid);
    expect(garbled.json().challenge).toBeDefined();

    t.clock.advance((CHALLENGE_TTL_SECONDS + 1) * 1000);
    const expired = await askCode(numbers[2] ?? '', addressIn(network), proof);
    expect(expired.statusCode).toBe(400);
    expect(expired.json()).toMatchObject({
      reason: SEND_REFUSALS.challengeExpired,
      message: 'The challenge has expired. Solve the new one.',
    });
    expect(await sentTo(numbers)).toBe(0);
  });

  it('lets a listener asked for a challenge send it at once for the same number (a refusal counts nothing)', async () => {
    const network = freshNetwork();
    await spendFreeCodes(network);
    const msisdn = randomMsisdn();
    const asked = await askCode(msisdn, addressIn(network));
    expect(asked.json().reason).toBe(SEND_REFUSALS.challengeRequired);
    // Not "a code was sent moments ago": none was, so the 30 s wait did not start.
    const solved = await askCode(msisdn, addressIn(network), await solve(asked.json().challenge));
    expect(solved.statusCode).toBe(200);
    expect(await sentTo([msisdn])).toBe(1);
  });

  it('names each other refusal by its own code: a code moments ago, the number, the prefix, the site', async () => {
    const msisdn = randomMsisdn();
    const fromAnywhere = () => addressIn(freshNetwork());
    expect((await askCode(msisdn, fromAnywhere())).statusCode).toBe(200);
    const again = await askCode(msisdn, fromAnywhere());
    expect(again.statusCode).toBe(429);
    expect(again.json()).toMatchObject({
      reason: SEND_REFUSALS.recentlySent,
      message: 'A code was sent moments ago. Wait before asking again.',
    });
    for (let n = 1; n < 5; n++) {
      t.clock.advance(31_000);
      expect((await askCode(msisdn, fromAnywhere())).statusCode).toBe(200);
    }
    t.clock.advance(31_000);
    const sixth = await askCode(msisdn, fromAnywhere());
    expect(sixth.json()).toMatchObject({
      reason: SEND_REFUSALS.recipientLimit,
      message: 'Too many codes were requested for this number or address. Try again later.',
    });

    // Ten numbers of one block at once, from ten networks: the prefix's budget goes out.
    const block = numbersOfOneBlock(10);
    const answers = await Promise.all(block.map((number) => askCode(number, fromAnywhere())));
    expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(PREFIX_BUDGET);
    expect(await sentTo(block)).toBe(PREFIX_BUDGET);
    expect(answers.find((answer) => answer.statusCode === 429)?.json()).toMatchObject({
      reason: SEND_REFUSALS.prefixLimit,
      message: 'Too many codes were requested for numbers like this one. Try again later.',
    });
  });

  it('stops text messages at the site budget with its own code, whatever the number of addresses', async () => {
    const numbers = Array.from({ length: SMS_BUDGET + 20 }, () => randomMsisdn());
    const answers = await Promise.all(numbers.map((msisdn) => askCode(msisdn, addressIn(freshNetwork()))));
    expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(SMS_BUDGET);
    expect(answers.find((answer) => answer.statusCode === 429)?.json()).toMatchObject({
      reason: SEND_REFUSALS.smsBudget,
      message: 'We cannot send text messages right now. Try again later or sign in by e-mail.',
    });
  }, 60_000);

  it('counts an IPv6 network by its /64: another address in it is the same network', async () => {
    const network = freshNetwork();
    for (let n = 0; n < FREE; n++)
      expect((await askCode(randomMsisdn(), addressIn(network, 0x1000 + n))).statusCode).toBe(200);
    expect((await askCode(randomMsisdn(), `${network}:1:2:3:4`)).json().reason).toBe(
      SEND_REFUSALS.challengeRequired,
    );
    expect((await askCode(randomMsisdn(), addressIn(freshNetwork()))).statusCode).toBe(200);
  });

  it("asks no challenge of a signed-in listener's own change of number (bounded per account)", async () => {
    const user = await signUpByMobile(t);
    const network = freshNetwork();
    await spendFreeCodes(network);
    const change = await t.app.inject({
      method: 'POST',
      url: '/api/users/me/phone',
      headers: { ...STORE, authorization: `Bearer ${user.access_token}` },
      payload: { PhoneNumber: randomMsisdn().slice(3), CountryCode: 976 },
      remoteAddress: addressIn(network),
    });
    expect(change.statusCode).toBe(200);
  });
});

describe('the network of a client address', () => {
  it('is an IPv4 address itself, and the /64 of an IPv6 one', () => {
    expect(networkOf('203.0.113.7')).toBe('203.0.113.7');
    expect(networkOf('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(networkOf('2001:db8:a:b:c:d:e:f')).toBe('2001:db8:a:b::/64');
    expect(networkOf('2001:0db8:000a:0b00::1')).toBe('2001:db8:a:b00::/64');
    expect(networkOf('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(networkOf('::1')).toBe('0:0:0:0::/64');
  });
});
