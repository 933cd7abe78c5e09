import { expect, test } from '../fixtures';
import { text } from './a11y-helpers';

/**
 * A company's e-barimt asked for after a payment (issue 37): the company's name, as the tax
 * authority has it, is shown before the receipt is issued to it; in English and Mongolian.
 */
const PAID_CARD = '4242 4242 4242 4242';

for (const language of ['en', 'mn'] as const) {
  const say = (key: string) => text(language, key);

  test(`${language}: the company's name is shown, then the receipt is issued to it`, async ({
    page,
    signIn,
  }) => {
    test.setTimeout(90_000);
    await signIn();
    await page.goto('/premium');
    if (language === 'mn') await page.getByRole('button', { name: 'Монгол' }).click();
    await page
      .getByRole('article', { name: language === 'mn' ? 'Премиум' : 'Premium', exact: true })
      .getByRole('button', { name: say('premium:plan.get') })
      .click();
    await page.getByLabel('Card number').fill(PAID_CARD);
    await page.getByLabel('Expiry (MM/YY)').fill('12/39');
    await page.getByLabel('CVC').fill('123');
    await page.getByRole('button', { name: /^Pay / }).click();
    await expect(page).toHaveURL(/\/success\?invoiceId=/);

    const ebarimt = page.getByRole('region', { name: say('ebarimt:title') });
    await expect(ebarimt.getByText(say('ebarimt:lottery'))).toBeVisible({ timeout: 30_000 });
    await ebarimt.getByText(say('ebarimt:company-ask')).click();
    await ebarimt.getByLabel(say('ebarimt:company-label')).fill('1234567');
    await ebarimt.getByRole('button', { name: say('ebarimt:company-find') }).click();
    const name = 'Жишээ Технологи ХХК';
    await expect(ebarimt.getByRole('status').filter({ hasText: name })).toHaveText(
      say('ebarimt:company-found').replace('{{name}}', name),
    );
    // Nothing is asked for yet: the citizen receipt stands until the name is confirmed.
    await expect(ebarimt.getByText(say('ebarimt:lottery'))).toBeVisible();
    await ebarimt
      .getByRole('button', { name: say('ebarimt:company-confirm').replace('{{name}}', name) })
      .click();
    // Asked for: pending, then issued to that company (the job queue may be quick).
    await expect(ebarimt.getByText(say('ebarimt:company-ask'))).toBeHidden();
    await expect(ebarimt).toContainText(name);
  });
}
