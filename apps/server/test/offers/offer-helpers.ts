import { expect } from 'vitest';
import { consoleCall } from '../helpers/console.js';
import type { TestApp } from '../helpers/test-app.js';

const YEAR_MS = 365 * 86_400_000;

/** An offer made through the console as an admin would (defaults: 50 % off, 3 periods, anyone, 100 places). */
export async function makeOffer(t: TestApp, adminCookie: string, terms: Record<string, unknown>) {
  const made = await consoleCall(t, adminCookie, 'POST', '/api/admin/offers', {
    kind: 'percent',
    value: 50,
    periods: 3,
    audience: 'any',
    maxRedemptions: 100,
    endsAt: new Date(t.clock.now().getTime() + 2 * YEAR_MS).toISOString(),
    ...terms,
  });
  expect(made.statusCode, made.body).toBe(201);
  return made.json() as { id: string; code: string; redeemed: number; maxRedemptions: number };
}

export function lookUp(t: TestApp, code: string, headers: Record<string, string> = {}) {
  return t.app.inject({ method: 'GET', url: `/api/offers/${encodeURIComponent(code)}`, headers });
}

/** A unique code for one test (codes are 4–32 of A–Z, 0–9 and dashes). */
export const uniqueCode = (prefix: string) =>
  `${prefix}-${Math.random().toString(36).slice(2, 8).toUpperCase()}`;
