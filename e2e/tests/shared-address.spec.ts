import { randomInt } from 'node:crypto';
import type { APIRequestContext } from '@playwright/test';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { baseUrl, expect, latestMessage, randomMsisdn, readOutbox, STORE } from '../fixtures';
import { testOnServerWith } from '../own-server';
import { LANGUAGES, text, useLanguage } from './a11y-helpers';

/**
 * Sign-in behind a shared address (issue 37, security.md "Sends"): past the free codes of an
 * address the dialog shows a check, solves it in a worker and the code arrives; past the hard cap
 * it says so plainly and never that a code was sent. A server of its own with small numbers,
 * believing X-Forwarded-For from the loopback, so each test is a network of its own.
 */
const FREE = 2;
const HARD_CAP = 4;
const test = testOnServerWith({
  TRUST_PROXY: '127.0.0.1',
  SENDS_PER_CLIENT_HOURLY: String(FREE),
  SENDS_PER_CLIENT_HOURLY_MAX: String(HARD_CAP),
  // A real check in the browser's worker, shorter than the site's default.
  SEND_CHALLENGE_MAX_TRIES: '1000',
});

const usedAddresses = new Set<string>();

/** A client network of its own (TEST-NET-2 and -3, never a real listener's), never one used before. */
function freshAddress(): string {
  for (;;) {
    const address = `${randomInt(2) ? '198.51.100' : '203.0.113'}.${randomInt(1, 255)}`;
    if (!usedAddresses.has(address)) {
      usedAddresses.add(address);
      return address;
    }
  }
}

/** Asks for a code to a new number from `address`, as another listener behind it would. */
const askCode = (request: APIRequestContext, address: string, proof?: string) =>
  request.get(`${baseUrl()}/api/users/requestotp`, {
    headers: { ...STORE, 'X-Forwarded-For': address },
    params: { msisdn: randomMsisdn(), language: 'en', otpprovider: 'sms', ...(proof ? { proof } : {}) },
  });

/** Other listeners behind `address` take its free codes. */
async function spendFreeCodes(request: APIRequestContext, address: string) {
  for (let n = 0; n < FREE; n++) {
    const asked = await askCode(request, address);
    expect(asked.ok(), await asked.text()).toBe(true);
  }
}

/** Other listeners behind `address` take its free codes, then the rest of its hard cap with checks solved. */
async function spendHardCap(request: APIRequestContext, address: string) {
  await spendFreeCodes(request, address);
  for (let n = FREE; n < HARD_CAP; n++) {
    const asked = await (await askCode(request, address)).json();
    expect(asked.reason).toBe('challenge_required');
    const solution = await solveChallenge({ challenge: asked.challenge, deriveKey });
    const proof = Buffer.from(JSON.stringify({ challenge: asked.challenge, solution })).toString('base64');
    expect((await askCode(request, address, proof)).ok()).toBe(true);
  }
}

/** What the dialog says when a code went out, in each language ("We sent a 4-digit code…"). */
const SENT_WORDS = { en: 'We sent', mn: 'илгээлээ' } as const;

for (const language of LANGUAGES) {
  test.describe(`sign-in behind a busy address (${language})`, () => {
    test('past the free codes, the dialog checks, solves it and the code arrives', async ({ page }) => {
      const address = freshAddress();
      await spendFreeCodes(page.request, address);
      await useLanguage(page, language);
      await page.setExtraHTTPHeaders({ 'X-Forwarded-For': address });
      const msisdn = randomMsisdn();

      await page.goto('/login');
      const dialog = page.getByRole('dialog', { name: text(language, 'accounts:modal.title') });
      await dialog.getByLabel(text(language, 'accounts:mobile.phone')).fill(msisdn.slice(3));
      await dialog.getByRole('button', { name: text(language, 'accounts:mobile.verify') }).click();

      // The check shows in the dialog, its widget solving at once in a worker (a second or so).
      const check = dialog.getByRole('region', { name: text(language, 'accounts:send.challenge-intro') });
      await expect(check).toBeVisible();

      const sent = text(language, 'accounts:mobile.code-sent').replace(
        '{{phone}}',
        `+976 ${msisdn.slice(3)}`,
      );
      await expect(dialog.getByText(sent)).toBeVisible({ timeout: 30_000 });
      const { code } = await latestMessage(page.request, msisdn);
      expect(code).toMatch(/^\d{4}$/);
      await dialog.getByLabel(text(language, 'accounts:mobile.code'), { exact: true }).fill(code ?? '');
      await dialog.getByRole('button', { name: text(language, 'accounts:mobile.continue') }).click();
      await expect(page).toHaveURL(/\/profile$/);
    });

    test('past the hard cap, the dialog says so plainly and never that a code was sent', async ({ page }) => {
      const address = freshAddress();
      await spendHardCap(page.request, address);
      await useLanguage(page, language);
      await page.setExtraHTTPHeaders({ 'X-Forwarded-For': address });
      const msisdn = randomMsisdn();

      await page.goto('/login');
      const dialog = page.getByRole('dialog', { name: text(language, 'accounts:modal.title') });
      await dialog.getByLabel(text(language, 'accounts:mobile.phone')).fill(msisdn.slice(3));
      await dialog.getByRole('button', { name: text(language, 'accounts:mobile.verify') }).click();

      await expect(dialog.getByText(text(language, 'accounts:send.network-limit'))).toBeVisible();
      await expect(dialog).not.toContainText(SENT_WORDS[language]);
      await expect(dialog.getByText(text(language, 'accounts:send.challenge-intro'))).toHaveCount(0);
      // Still on the number step, and nothing went out.
      await expect(dialog.getByLabel(text(language, 'accounts:mobile.phone'))).toBeVisible();
      expect(await readOutbox(page.request, msisdn)).toEqual([]);
    });
  });
}
