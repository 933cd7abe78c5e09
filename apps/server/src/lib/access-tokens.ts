import { randomUUID } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';

const ISSUER = 'tunes.mn';
const AUDIENCE = 'tunes.mn/api';

export interface AccessTokenClaims {
  /** The user id. */
  sub: string;
  exp: number;
}

/**
 * Access tokens are short-lived HS256 JWTs, so any API process verifies them without shared
 * state (DESIGN §1). Refresh tokens are opaque and live in the database (accounts module).
 */
export class AccessTokens {
  readonly #key: Uint8Array;

  constructor(
    secret: string,
    readonly ttlSeconds: number,
  ) {
    this.#key = new TextEncoder().encode(secret);
  }

  async sign(userId: string, now = Date.now()): Promise<string> {
    const issuedAt = Math.floor(now / 1000);
    return new SignJWT({})
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(userId)
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + this.ttlSeconds)
      .setJti(randomUUID())
      .sign(this.#key);
  }

  /** The claims of a valid token, or null for an expired, forged or malformed one. */
  async verify(token: string): Promise<AccessTokenClaims | null> {
    try {
      const { payload } = await jwtVerify(token, this.#key, {
        issuer: ISSUER,
        audience: AUDIENCE,
        algorithms: ['HS256'],
      });
      if (typeof payload.sub !== 'string' || typeof payload.exp !== 'number') return null;
      return { sub: payload.sub, exp: payload.exp };
    } catch (error) {
      if (error instanceof errors.JOSEError) return null;
      throw error;
    }
  }
}
