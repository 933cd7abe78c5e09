import { createSigner } from 'fast-jwt';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AccessTokens } from './access-tokens.js';

const SECRET = 'a'.repeat(64);
const USER = '6d9b16d0-82d4-4f01-8614-303c2d946b8f';

describe('AccessTokens with verified tokens kept', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('refuses a kept token once it has expired', async () => {
    vi.useFakeTimers({ now: new Date('2026-11-26T00:00:00Z') });
    const tokens = new AccessTokens(SECRET, 60);
    const token = await tokens.sign(USER);
    expect(tokens.verify(token)?.sub).toBe(USER);
    vi.setSystemTime(new Date('2026-11-26T00:00:59Z'));
    expect(tokens.verify(token)?.sub).toBe(USER);
    vi.setSystemTime(new Date('2026-11-26T00:01:01Z'));
    expect(tokens.verify(token)).toBeNull();
  });

  it('refuses a token signed with another secret, even after its twin was kept', async () => {
    const tokens = new AccessTokens(SECRET, 60);
    const forged = await new AccessTokens('b'.repeat(64), 60).sign(USER);
    const genuine = await tokens.sign(USER);
    expect(tokens.verify(genuine)?.sub).toBe(USER);
    expect(tokens.verify(forged)).toBeNull();
    expect(tokens.verify(forged)).toBeNull();
  });

  it('refuses a kept token whose signature was altered', async () => {
    const tokens = new AccessTokens(SECRET, 60);
    const token = await tokens.sign(USER);
    expect(tokens.verify(token)?.sub).toBe(USER);
    // A character inside the signature (the last one carries padding bits).
    const at = token.length - 10;
    const altered = `${token.slice(0, at)}${token[at] === 'A' ? 'B' : 'A'}${token.slice(at + 1)}`;
    expect(tokens.verify(altered)).toBeNull();
  });

  it('refuses a token signed with the right secret but without its issuer or audience', async () => {
    const tokens = new AccessTokens(SECRET, 60);
    const key = Buffer.from(SECRET, 'utf8');
    const now = Math.floor(Date.now() / 1000);
    const claims = { sub: USER, iat: now, exp: now + 60 };
    const bare = createSigner({ key, algorithm: 'HS256' })(claims);
    const noAudience = createSigner({ key, algorithm: 'HS256', iss: 'tunes.mn' })(claims);
    const noIssuer = createSigner({ key, algorithm: 'HS256', aud: 'tunes.mn/api' })(claims);
    const otherAudience = createSigner({ key, algorithm: 'HS256', iss: 'tunes.mn', aud: 'elsewhere' })(
      claims,
    );
    for (const token of [bare, noAudience, noIssuer, otherAudience]) expect(tokens.verify(token)).toBeNull();
    expect(tokens.verify(await tokens.sign(USER))?.sub).toBe(USER);
  });
});
