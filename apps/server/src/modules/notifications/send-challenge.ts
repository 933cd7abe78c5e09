import { createHmac } from 'node:crypto';
import { ERROR_CODES } from '@tunes/shared/error-codes';
import { SEND_REFUSALS, type SendChallenge } from '@tunes/shared/send-codes';
import { createChallenge, randomInt, verifySolution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import type { Challenge, Solution } from 'altcha-lib/types';
import type { Deps } from '../../deps.js';
import { AppError } from '../../lib/errors.js';
import { proofUse } from '../../lib/limits.js';

type ChallengeDeps = Pick<Deps, 'config' | 'clock' | 'throttle'>;

/** A challenge is solved and used within this time; its proof is good for one send (decision 0037). */
export const CHALLENGE_TTL_SECONDS = 10 * 60;
const ALGORITHM = 'PBKDF2/SHA-256';

/**
 * The challenge's keys, derived from HMAC_SECRET for this one use: one signs the challenge, one
 * the key its solution must reach (ALTCHA's deterministic mode: the server draws the answer, so a
 * check is one HMAC, not a key derivation).
 */
const derived = (secret: string, use: string) => createHmac('sha256', secret).update(use).digest('hex');
const secretsOf = (deps: ChallengeDeps) => ({
  hmacSignatureSecret: derived(deps.config.HMAC_SECRET, 'send-challenge:signature'),
  hmacKeySignatureSecret: derived(deps.config.HMAC_SECRET, 'send-challenge:key'),
});

/**
 * A new proof-of-work challenge (ALTCHA, `altcha-lib`): the solver tries counters from 0 until
 * PBKDF2 (SEND_CHALLENGE_COST iterations) reaches the key of a counter drawn here between half
 * of SEND_CHALLENGE_MAX_TRIES and all of it. Costs the server one derivation.
 */
export async function issueSendChallenge(deps: ChallengeDeps): Promise<SendChallenge> {
  const { SEND_CHALLENGE_COST: cost, SEND_CHALLENGE_MAX_TRIES: maxTries } = deps.config;
  const challenge = await createChallenge({
    algorithm: ALGORITHM,
    cost,
    counter: randomInt(maxTries - 1, Math.floor(maxTries / 2)),
    deriveKey,
    expiresAt: new Date(deps.clock.now().getTime() + CHALLENGE_TTL_SECONDS * 1000),
    ...secretsOf(deps),
  });
  return { parameters: { ...challenge.parameters }, signature: challenge.signature ?? '' };
}

interface Payload {
  challenge: Challenge;
  solution: Solution;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** ALTCHA's payload (base64 of `{ challenge, solution }`), or null when it is not one. */
function parseProof(proof: string): Payload | null {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(proof, 'base64').toString('utf8'));
  } catch {
    return null;
  }
  if (!isRecord(decoded) || !isRecord(decoded.challenge) || !isRecord(decoded.solution)) return null;
  const { parameters, signature } = decoded.challenge;
  const { counter, derivedKey } = decoded.solution;
  if (!isRecord(parameters) || typeof signature !== 'string') return null;
  if (typeof counter !== 'number' || typeof derivedKey !== 'string') return null;
  return decoded as unknown as Payload;
}

/** A refused proof: its own reason, and a new challenge so the listener can solve again at once. */
async function refusedProof(deps: ChallengeDeps, reason: string, message: string): Promise<AppError> {
  const challenge = await issueSendChallenge(deps);
  return new AppError(400, ERROR_CODES.badRequest, message, { field: 'proof', reason, challenge });
}

/**
 * Spends a solved challenge on one send, or throws why not (400 naming `proof`, its `reason`
 * `challenge_invalid`, `challenge_expired` or `challenge_used`, each with a new challenge). Checked in order of cost: the
 * signatures (two HMACs), the expiry on the business clock, then single use, one atomic take of
 * the throttle keyed by the challenge's signature, so of any number of sends with one proof at
 * once, on any number of processes, one passes.
 */
export async function spendSendProof(deps: ChallengeDeps, proof: string): Promise<void> {
  const payload = parseProof(proof);
  const verdict = payload
    ? await verifySolution({ ...payload, deriveKey, ...secretsOf(deps) }).catch(() => null)
    : null;
  if (!payload || !verdict || (!verdict.verified && !verdict.expired)) {
    throw await refusedProof(
      deps,
      SEND_REFUSALS.challengeInvalid,
      'The answer to the challenge is not valid. Solve the new challenge.',
    );
  }
  const expiresAt = Number(payload.challenge.parameters.expiresAt ?? 0);
  if (verdict.expired || expiresAt * 1000 <= deps.clock.now().getTime()) {
    throw await refusedProof(
      deps,
      SEND_REFUSALS.challengeExpired,
      'The challenge has expired. Solve the new one.',
    );
  }
  const use = await deps.throttle.take(
    `send-proof:${payload.challenge.signature}`,
    proofUse(CHALLENGE_TTL_SECONDS),
  );
  if (!use.allowed) {
    throw await refusedProof(
      deps,
      SEND_REFUSALS.challengeUsed,
      'This answer to the challenge was already used. Solve the new challenge.',
    );
  }
}
