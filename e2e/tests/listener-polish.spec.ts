import type { Locator, Page } from '@playwright/test';
import { baseUrl, expect, mintSilentLoginToken, signIn, signInByApi, test } from '../fixtures';
import { familyPlanWithInvitation, settle, useLanguage } from './a11y-helpers';

/** Issue 19: the rough edges a listener saw at 360 px and the layouts at other widths. */

const box = async (locator: Locator) => {
  const found = await locator.boundingBox();
  if (!found) throw new Error('not rendered');
  return found;
};

/** A value on one line: its box is less than two lines of its text high. */
async function onOneLine(value: Locator) {
  const { height, lineHeight } = await value.evaluate((element) => {
    const style = getComputedStyle(element);
    const line = Number.parseFloat(style.lineHeight) || Number.parseFloat(style.fontSize) * 1.5;
    return { height: element.getBoundingClientRect().height, lineHeight: line };
  });
  expect(height, (await value.textContent()) ?? '').toBeLessThan(lineHeight * 1.6);
}

test.describe('at 360 px', () => {
  test.beforeEach(async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 800 });
  });

  test('the footer wordmark sits beside its icon; phone and e-mail stay whole', async ({ page }) => {
    for (const language of ['en', 'mn'] as const) {
      await useLanguage(page, language);
      await page.goto('/contact');
      const footer = page.getByRole('contentinfo');
      const logo = footer.locator('.logo');
      const icon = await box(logo.locator('svg'));
      const word = await box(logo.locator('.logo__text'));
      expect(word.x).toBeGreaterThan(icon.x + icon.width - 1);
      expect(Math.abs(word.y + word.height / 2 - (icon.y + icon.height / 2))).toBeLessThan(6);
      for (const value of await page.locator('.whole-value').all()) await onOneLine(value);
      // The contact page and the footer: two numbers and two addresses.
      await expect(page.locator('.whole-value')).toHaveCount(4);
    }
  });

  test("the profile's number stays whole and the voucher block has no empty strips", async ({ page }) => {
    await signIn(page);
    await page.goto('/profile');
    const details = page.getByRole('region', { name: 'Profile details' });
    await onOneLine(details.locator('.whole-value'));
    const voucher = page.getByRole('region', { name: 'Redeem a voucher' });
    const card = await box(voucher);
    const hint = await box(voucher.getByText('Letters, digits and hyphens'));
    const button = await box(voucher.getByRole('button', { name: 'Redeem' }));
    // The button follows the hint closely and the card ends after its padding.
    expect(button.y - (hint.y + hint.height)).toBeLessThan(32);
    expect(card.y + card.height - (button.y + button.height)).toBeLessThan(40);
  });

  test('the join block ends after its button', async ({ page, browser }) => {
    const owner = await signInByApi(page.request);
    const code = await familyPlanWithInvitation(page.request, owner);
    const context = await browser.newContext({ viewport: { width: 360, height: 800 } });
    const visitor = await context.newPage();
    await signIn(visitor);
    await visitor.goto(`${baseUrl()}/invite?code=${code}`);
    const join = visitor.getByRole('region', { name: 'Join Premium' });
    const button = await box(join.getByRole('button', { name: 'Accept invite' }));
    const card = await box(join);
    expect(card.y + card.height - (button.y + button.height)).toBeLessThan(40);
    await context.close();
  });

  test('the silent-login error keeps the page margins and rounded corners', async ({ page }) => {
    const user = await signInByApi(page.request);
    const token = await mintSilentLoginToken(page.request, user.sub);
    await page.goto(`/premium?userId=${user.sub}&token=${encodeURIComponent(`${token}0`)}`);
    const error = page.locator('main .form-error');
    await expect(error).toBeVisible();
    const banner = await box(error);
    expect(banner.x).toBeGreaterThanOrEqual(16);
    expect(banner.x + banner.width).toBeLessThanOrEqual(360 - 16);
    await expect(error).not.toHaveCSS('border-radius', '0px');
  });
});

test.describe('the privacy policy speaks plainly', () => {
  for (const language of ['en', 'mn'] as const) {
    test(`no technical words in ${language}`, async ({ page }) => {
      await useLanguage(page, language);
      await page.goto('/help/tos');
      await settle(page);
      const privacy = page.getByRole('region', {
        name: language === 'en' ? 'Privacy policy' : 'Нууцлалын бодлого',
      });
      await expect(privacy).toBeVisible();
      const text = (await privacy.textContent()) ?? '';
      expect(text).not.toMatch(/scrypt|authData|hash|token|хэш|токен/i);
    });
  }
});

test.describe('/premium before paying', () => {
  const texts = {
    en: {
      title: 'Before you pay',
      card: /Bank card/,
      qpay: /QPay/,
      cancel: /Cancel any time/,
      question: 'Can I change plan later?',
      answer: /A larger plan starts at once/,
    },
    mn: {
      title: 'Төлөхөөс өмнө',
      card: /Банкны карт/,
      qpay: /QPay/,
      cancel: /хүссэн үедээ цуцална/,
      question: 'Дараа нь багцаа сольж болох уу?',
      answer: /Том багц шууд эхэлж/,
    },
  };
  for (const language of ['en', 'mn'] as const) {
    test(`ways to pay, fine print and plan questions in ${language}`, async ({ page }) => {
      const text = texts[language];
      await useLanguage(page, language);
      await page.goto('/premium');
      const section = page.getByRole('region', { name: text.title });
      await expect(section.getByText(text.card)).toBeVisible();
      await expect(section.getByText(text.qpay)).toBeVisible();
      await expect(section.getByText(text.cancel)).toBeVisible();
      const answer = section.getByText(text.answer);
      await expect(answer).toBeHidden();
      await section.getByText(text.question).click();
      await expect(answer).toBeVisible();
    });
  }
});

test.describe('landing layouts and artwork', () => {
  async function landing(page: Page, width: number) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/');
    await settle(page);
  }

  test('the featured video fills its column at 1440 px; the banner stays under 440 px below 1024 px', async ({
    page,
  }) => {
    await landing(page, 1440);
    const section = await box(page.getByRole('region', { name: 'Featured artist' }));
    const video = await box(page.getByRole('button', { name: 'Play the music video' }));
    expect(Math.abs(video.width - section.width)).toBeLessThan(2);
    for (const width of [1024, 800, 600]) {
      await landing(page, width);
      const banner = await box(page.locator('picture img'));
      expect(banner.height, `${width} px`).toBeLessThanOrEqual(441);
    }
  });

  test('card titles wrap to two lines before they are cut', async ({ page }) => {
    await landing(page, 1440);
    const name = page
      .getByRole('region', { name: 'Artists' })
      .getByRole('link')
      .first()
      .locator('span')
      .first();
    await expect(name).toHaveCSS('-webkit-line-clamp', '2');
    await expect(name).not.toHaveCSS('white-space', 'nowrap');
  });

  test('every card and the video have their own artwork with no words drawn in, and each reel its own cover', async ({
    page,
  }) => {
    await landing(page, 1440);
    const sources = await page
      .locator('main img[src^="/api/content/images/"]')
      .evaluateAll((images) => images.map((image) => image.getAttribute('src') ?? ''));
    const unique = [...new Set(sources)];
    expect(unique.length).toBeGreaterThanOrEqual(4);
    const bodies = await Promise.all(unique.map(async (src) => (await page.request.get(src)).text()));
    for (const body of bodies) {
      expect(body).toContain('<svg');
      expect(body).not.toContain('<text');
    }
    expect(new Set(bodies).size).toBe(bodies.length);
    const covers = await page
      .locator('main li svg rect[fill^="url("]')
      .evaluateAll((rects) =>
        rects.map((rect) => rect.closest('svg')?.querySelector('stop')?.getAttribute('stop-color') ?? ''),
      );
    expect(covers).toHaveLength(3);
    expect(new Set(covers).size).toBe(3);
  });
});
