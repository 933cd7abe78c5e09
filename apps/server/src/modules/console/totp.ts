import { generate, generateSecret, generateURI, verify } from 'otplib';

/** TOTP of RFC 6238 through otplib (decision 0019): 6 digits, 30 s steps, one step of drift. */
const PERIOD_SECONDS = 30;
const ISSUER = 'Tunes console';

export const newTotpSecret = (): string => generateSecret();

export const totpUri = (email: string, secret: string): string =>
  generateURI({ issuer: ISSUER, label: email, secret });

/**
 * The time step `code` belongs to when it is right for `secret` at `now` (±1 step) and later than
 * `afterStep`; null otherwise. The caller stores the step so the same code is never taken twice.
 */
export async function verifyTotp(
  secret: string,
  code: string,
  now: Date,
  afterStep: number | null,
): Promise<number | null> {
  if (!/^\d{6}$/.test(code)) return null;
  const result = await verify({
    secret,
    token: code,
    epoch: Math.floor(now.getTime() / 1000),
    epochTolerance: PERIOD_SECONDS,
    ...(afterStep === null ? {} : { afterTimeStep: afterStep }),
  });
  return result.valid && 'timeStep' in result ? result.timeStep : null;
}

/** The code for `secret` at `now` (development helper and tests). */
export const totpCode = (secret: string, now: Date): Promise<string> =>
  generate({ secret, epoch: Math.floor(now.getTime() / 1000) });
