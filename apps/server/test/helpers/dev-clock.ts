import { expect } from 'vitest';
import { runDue } from './qpay-factories.js';
import type { TestApp } from './test-app.js';

/**
 * Moves the server clock to `time` with the development contract (never back) and runs what is
 * due, as an outside test would; answers what ran.
 */
export async function runDueAt(t: TestApp, time: number) {
  const now = t.clock.now().getTime();
  if (time > now) {
    const moved = await t.app.inject({
      method: 'POST',
      url: '/dev/clock',
      payload: { advanceSeconds: Math.ceil((time - now) / 1000) },
    });
    expect(moved.statusCode, moved.body).toBe(200);
  }
  return runDue(t);
}
