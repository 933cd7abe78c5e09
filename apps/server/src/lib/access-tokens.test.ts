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
});
