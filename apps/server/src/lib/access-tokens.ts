import { randomUUID } from 'node:crypto';
import { createSigner, createVerifier, TokenError } from 'fast-jwt';

const ISSUER = 'tunes.mn';
const AUDIENCE = 'tunes.mn/api';

/** Verified tokens each process keeps (~1 KB each): the signed-in users active in a token's lifetime. */
const VERIFIED_TOKENS_KEPT = 10_000;

export interface AccessTokenClaims {
  /** The user id. */
  sub: string;
  exp: number;
  /** The sign-in (refresh-token family) the token belongs to, when it was issued by one. */
  sid?: string;
}

/**
 * Access tokens are short-lived HS256 JWTs, so any API process verifies them without shared
 * state (architecture.md). Refresh tokens are opaque and live in the database (accounts module).
 * fast-jwt verifies with node:crypto synchronously, ~7 µs a token where WebCrypto (jose) took
 * ~200 µs on every authenticated call (docs/performance.md).
 */
export class AccessTokens {
  readonly #sign: (payload: Record<string, unknown>) => string;
  readonly #verify: (token: string) => unknown;

  constructor(
    secret: string,
    readonly ttlSeconds: number,
  ) {
    const key = Buffer.from(secret, 'utf8');
    this.#sign = createSigner({
      key,
      algorithm: 'HS256',
      iss: ISSUER,
      aud: AUDIENCE,
      expiresIn: ttlSeconds * 1000,
    });
    this.#verify = createVerifier({
      key,
      algorithms: ['HS256'],
      allowedIss: ISSUER,
      allowedAud: AUDIENCE,
      // fast-jwt checks `iss` and `aud` only when present: required, a token without them fails.
      requiredClaims: ['sub', 'exp', 'iss', 'aud'],
      // A client sends the same token on every call for its lifetime: a verified token is kept
      // (by its SHA-256, never past its expiry; failures are not kept), ~6 µs a call instead of ~18.
      cache: VERIFIED_TOKENS_KEPT,
    });
  }

  /** A token for `userId` issued at `now` (the expiry counts from there). */
  async sign(userId: string, now = Date.now(), sessionId?: string): Promise<string> {
    return this.#sign({
      sub: userId,
      jti: randomUUID(),
      iat: Math.floor(now / 1000),
      ...(sessionId ? { sid: sessionId } : {}),
    });
  }

  /** The claims of a valid token, or null for an expired, forged or malformed one. */
  verify(token: string): AccessTokenClaims | null {
    try {
      const payload = this.#verify(token) as Record<string, unknown>;
      if (typeof payload.sub !== 'string' || typeof payload.exp !== 'number') return null;
      return {
        sub: payload.sub,
        exp: payload.exp,
        ...(typeof payload.sid === 'string' ? { sid: payload.sid } : {}),
      };
    } catch (error) {
      if (error instanceof TokenError) return null;
      throw error;
    }
  }
}
