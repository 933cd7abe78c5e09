import type { PaymentEntry } from '@tunes/shared/billing';
import { baseUrl, bearer, expect, test } from '../fixtures';
import { LANGUAGES, text, useLanguage } from './a11y-helpers';

const FAMILY = { en: 'Premium Family', mn: 'Премиум Гэр бүл' } as const;

/** The whole tögrög in a price as the page writes it ("4,000 ₮", "4 000 ₮"). */
const tugrik = (written: string) => Number(written.replace(/\D/g, ''));

/** Issue 37: the amount an upgrade charges is on screen before Confirm, and is what is charged. */
for (const language of LANGUAGES) {
  test(`an upgrade shows the amount charged now before Confirm (${language})`, async ({ page, signIn }) => {
    const user = await signIn();
    const created = await page.request.post(`${baseUrl()}/dev/premium/subscriptions`, {
      data: { userId: user.sub, MerchantCode: 'PREMIUM_DUO_1M' },
    });
    expect(created.status()).toBe(201);
    await useLanguage(page, language);

    await page.goto('/profile');
    const billing = page.getByRole('region', { name: text(language, 'billing:title') });
    await billing.getByRole('button', { name: text(language, 'billing:change.open') }).click();
    await billing.getByRole('radio', { name: new RegExp(FAMILY[language]) }).check();

    const [before, after] = text(language, 'billing:change.charge-now').split('{{amount}}') as [
      string,
      string,
    ];
    const line = billing.getByText(before);
    await expect(line).toBeVisible();
    const written = (await line.textContent()) ?? '';
    const amount = tugrik(written.slice(before.length, written.indexOf(after.split('{{date}}')[0] ?? '')));
    // A Duo → Family upgrade at the start of the period: about the whole difference, 17,900 − 9,900.
    expect(amount).toBeGreaterThan(7900);
    expect(amount).toBeLessThanOrEqual(8000);
    const confirm = billing.getByRole('button', { name: text(language, 'billing:change.confirm') });
    await expect(confirm).toBeEnabled();

    // No card is saved: Confirm goes to the gateway page for the very amount shown.
    await confirm.click();
    await expect(page).toHaveURL(/\/sandbox-gateway\/payment\?token=/);
    const payments = await page.request.get(`${baseUrl()}/api/users/me/payments`, {
      headers: bearer(user.access_token),
    });
    const change = ((await payments.json()) as PaymentEntry[]).find((entry) => entry.kind === 'change');
    // The server priced both with one function; a second later the period may be a tögrög shorter.
    expect(Math.abs((change?.amount ?? 0) - amount)).toBeLessThanOrEqual(1);
  });
}
