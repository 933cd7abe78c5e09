import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Locator, Page } from '@playwright/test';
import { expect, test } from '../fixtures';

const ADMIN_CLI = fileURLToPath(new URL('../../apps/server/dist/admin/cli.js', import.meta.url));
const ARTISTS = ['1 of 8', '2 of 8', '3 of 8', '4 of 8', '5 of 8', '6 of 8', '7 of 8', '8 of 8'];

/** The slides a person sees in a carousel, left to right (the others are inert and hidden). */
function slidesInView(carousel: Locator): Promise<string[]> {
  return carousel.getByRole('group').evaluateAll((groups) =>
    groups
      .map((group) => ({ label: group.getAttribute('aria-label'), left: group.getBoundingClientRect().left }))
      .sort((a, b) => a.left - b.left)
      .map((group) => group.label ?? ''),
  );
}

const SECTIONS = {
  en: ['Artists', 'New songs', 'Trend songs', 'Featured artist', 'Playlists', 'Reels'],
  mn: [
    'Уран бүтээлчид',
    'Шинэ дуунууд',
    'Тренд дуунууд',
    'Онцлох уран бүтээлч',
    'Тоглуулах жагсаалтууд',
    'Богино бичлэгүүд',
  ],
};
const CAROUSELS = {
  en: ['Artists', 'New songs', 'Trend songs', 'Playlists'],
  mn: ['Уран бүтээлчид', 'Шинэ дуунууд', 'Тренд дуунууд', 'Тоглуулах жагсаалтууд'],
};

async function expectLanding(page: Page, language: 'en' | 'mn', visibleCards: number) {
  const banner =
    language === 'en'
      ? { title: 'Music for every moment', text: /Stream Mongolian hits/ }
      : { title: 'Мөч бүрт зориулсан хөгжим', text: /Монгол болон дэлхийн шилдэг дуунуудыг/ };
  await expect(page.getByRole('heading', { level: 1, name: banner.title })).toBeVisible();
  await expect(page.getByText(banner.text)).toBeVisible();
  for (const name of SECTIONS[language]) {
    await expect(page.getByRole('heading', { level: 2, name, exact: true })).toBeVisible();
  }
  for (const name of CAROUSELS[language]) {
    const carousel = page.getByRole('region', { name, exact: true });
    await carousel.scrollIntoViewIfNeeded();
    // Hovering pauses the autoplay, so the cards hold still while we look at them.
    await carousel.hover();
    // Cards out of view are inert and hidden from assistive technology.
    await expect(carousel.getByRole('link')).toHaveCount(visibleCards);
    for (const link of await carousel.getByRole('link').all()) {
      await expect(link).toBeInViewport({ ratio: 0.9 });
      await expect(link).toHaveAttribute('href', /^https:\/\/tunes\.mn\//);
      await expect(link).toHaveAttribute('target', '_blank');
    }
  }
  // Card titles come in the page's language (the content carries en and mn).
  const cardTitle = await page
    .getByRole('region', { name: CAROUSELS[language][0], exact: true })
    .getByRole('link')
    .first()
    .innerText();
  expect(cardTitle).toMatch(language === 'mn' ? /[А-яЁёӨөҮү]/ : /^[^А-яЁёӨөҮү]+$/);
  // ARTIST cards show round images; songs and playlists square ones.
  const artistImage = page.getByRole('region', { name: CAROUSELS[language][0], exact: true }).locator('img');
  await expect(artistImage.first()).toHaveCSS('border-radius', '50%');
  const songImage = page.getByRole('region', { name: CAROUSELS[language][1], exact: true }).locator('img');
  await expect(songImage.first()).not.toHaveCSS('border-radius', '50%');
}

test.describe('landing page', () => {
  for (const [width, visibleCards] of [
    [360, 1],
    [800, 2],
    [1024, 4],
    [1440, 4],
  ] as const) {
    test(`renders every section from the API in both languages at ${width} px with ${visibleCards} card(s) in view`, async ({
      page,
    }) => {
      await page.setViewportSize({ width, height: 900 });
      await page.goto('/');
      await expectLanding(page, 'en', visibleCards);
      await page.getByRole('button', { name: 'Монгол' }).click();
      await expectLanding(page, 'mn', visibleCards);
    });
  }

  test('the banner image changes at 1024 px and every image has a fixed size and loads lazily', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto('/');
    const banner = page.locator('picture img');
    await expect(banner).toHaveJSProperty('complete', true);
    const wide = await banner.evaluate((img: HTMLImageElement) => img.currentSrc);
    await page.setViewportSize({ width: 800, height: 900 });
    await expect.poll(() => banner.evaluate((img: HTMLImageElement) => img.currentSrc)).not.toBe(wide);

    const cardImages = page.getByRole('region', { name: 'Artists' }).locator('img');
    for (const img of await cardImages.all()) {
      await expect(img).toHaveAttribute('loading', 'lazy');
      await expect(img).toHaveAttribute('width', '400');
      await expect(img).toHaveAttribute('height', '400');
    }
  });

  test('a carousel is usable by keyboard and screen reader and wraps around endlessly', async ({ page }) => {
    // Reduced motion: no autoplay and instant moves, so every step is where the keys put it.
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto('/');
    const artists = page.getByRole('region', { name: 'Artists', exact: true });
    await expect(artists).toHaveAttribute('aria-roledescription', 'carousel');
    const start = artists.getByRole('button', { name: 'Start automatic scrolling' });
    await expect(start).toBeVisible();
    await expect.poll(() => slidesInView(artists)).toEqual(ARTISTS.slice(0, 4));
    await expect(artists.getByRole('group', { name: '1 of 8' })).toHaveAttribute(
      'aria-roledescription',
      'slide',
    );

    await start.focus();
    await page.keyboard.press('Tab');
    await expect(artists.getByRole('button', { name: 'Previous cards' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect.poll(() => slidesInView(artists)).toEqual(['8 of 8', '1 of 8', '2 of 8', '3 of 8']);
    await expect(artists.getByRole('status')).toHaveText('Showing card 8 of 8');
    await expect(artists.getByRole('link')).toHaveCount(4);

    await page.keyboard.press('Tab');
    await expect(artists.getByRole('button', { name: 'Next cards' })).toBeFocused();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await expect.poll(() => slidesInView(artists)).toEqual(ARTISTS.slice(1, 5));
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => slidesInView(artists)).toEqual(ARTISTS.slice(2, 6));
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => slidesInView(artists)).toEqual(ARTISTS.slice(1, 5));

    // Tab goes from the buttons to the cards in view, never to a hidden one.
    await page.keyboard.press('Tab');
    await expect(artists.getByRole('link', { name: /^Khangai Winds/ })).toBeFocused();
    for (const name of ['Nomad Lights', 'Blue Sky Choir', 'Gobi Pulse']) {
      await page.keyboard.press('Tab');
      await expect(artists.getByRole('link', { name: new RegExp(`^${name}`) })).toBeFocused();
    }
    await page.keyboard.press('Tab');
    await expect(
      page.getByRole('region', { name: 'New songs', exact: true }).getByRole('button').first(),
    ).toBeFocused();
  });

  test('autoplay moves the cards on and pauses while hovered or focused', async ({ page }) => {
    // A hold lasts two of the carousel's 4 s steps and more. Its time is jumped (each due timer
    // fires, so a step that should not come would start), then a second runs frame by frame, so
    // such a step's scroll would be seen: running every frame of the holds cost ~15 s in CI.
    const HOLD_MS = 9_000;
    const hold = async () => {
      await page.clock.fastForward(HOLD_MS);
      await page.clock.runFor(1_000);
    };
    test.setTimeout(120_000);
    await page.clock.install();
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto('/');
    const artists = page.getByRole('region', { name: 'Artists', exact: true });
    await expect(artists.getByRole('link')).toHaveCount(4);
    await page.mouse.move(1, 1);
    // From here on the page's time moves only when the test moves it.
    await page.clock.pauseAt(Date.now() + 60_000);
    await page.clock.runFor(1_000);
    const before = await slidesInView(artists);

    await page.clock.runFor(5_000);
    await expect.poll(() => slidesInView(artists)).not.toEqual(before);
    await expect(artists.getByRole('status')).toHaveText('');

    await artists.hover();
    await expect(artists.getByRole('status')).toHaveText(/^Showing card \d of 8$/);
    const hovered = await slidesInView(artists);
    await hold();
    expect(await slidesInView(artists)).toEqual(hovered);

    await page.mouse.move(1, 1);
    await artists.getByRole('button', { name: 'Next cards' }).focus();
    await expect(artists.getByRole('status')).toHaveText(/^Showing card \d of 8$/);
    const focused = await slidesInView(artists);
    await hold();
    expect(await slidesInView(artists)).toEqual(focused);

    await page.getByRole('heading', { level: 1 }).click();
    await expect(artists.getByRole('status')).toHaveText('');
    await page.clock.runFor(5_000);
    await expect.poll(() => slidesInView(artists)).not.toEqual(focused);

    // The pause button stops it for good (WCAG 2.2.2).
    await artists.getByRole('button', { name: 'Pause automatic scrolling' }).click();
    await page.mouse.move(1, 1);
    await page.getByRole('heading', { level: 1 }).click();
    const paused = await slidesInView(artists);
    await hold();
    expect(await slidesInView(artists)).toEqual(paused);
  });

  test('the music video opens in a modal and closes with the keyboard', async ({ page }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto('/');
    const play = page.getByRole('button', { name: 'Play the music video' });
    await play.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Featured music video' });
    await expect(dialog).toBeVisible();
    await expect(dialog.locator('iframe')).toHaveAttribute(
      'src',
      'https://www.youtube-nocookie.com/embed/jM8dCGIm6yc?autoplay=1',
    );
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(play).toBeFocused();

    await page.keyboard.press('Enter');
    await expect(dialog).toBeVisible();
    // The modal takes focus to its close button, so Enter closes it and focus goes back.
    await expect(dialog.getByRole('button', { name: 'Close video' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(dialog).toBeHidden();
    await expect(play).toBeFocused();
  });

  test('a reel plays its embed URL', async ({ page }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto('/');
    const reels = page.getByRole('region', { name: 'Reels' });
    await expect(reels.getByRole('button', { name: /^Play reel: / })).toHaveCount(3);
    // Until played, a reel loads no frame at all.
    await expect(reels.locator('iframe')).toHaveCount(0);
    await reels.getByRole('button', { name: 'Play reel: Thirty seconds of throat singing' }).click();
    await expect(page.locator('iframe[title="Reel: Thirty seconds of throat singing"]')).toHaveAttribute(
      'src',
      'https://www.youtube-nocookie.com/embed/jM8dCGIm6yc?autoplay=1',
    );
  });

  test('shows the failure message when the API is down', async ({ page }) => {
    // `/` arrives prerendered with the server's data; the browser's own request for it is the one
    // that fails here, as on a page reached within the site.
    await page.goto('/help/faq');
    await page.route('**/api/landing-page**', (route) => route.abort('connectionrefused'));
    await page.getByRole('link', { name: 'Tunes home' }).first().click();
    await expect(page.getByRole('alert')).toHaveText(/Failed to fetch landing page data/, {
      timeout: 15_000,
    });
    await page.getByRole('button', { name: 'Монгол' }).click();
    await expect(page.getByRole('alert')).toHaveText(/Нүүр хуудасны мэдээллийг татаж чадсангүй/);
  });
});

test.describe('help pages', () => {
  test('the FAQ opens one answer at a time', async ({ page }) => {
    await page.goto('/help/faq');
    const questions = page.getByRole('button', { expanded: false });
    await expect(questions).toHaveCount(24);
    const first = page.getByRole('button', { name: 'How do I create an account?' });
    const second = page.getByRole('button', { name: 'How do I cancel Premium?' });
    await first.click();
    await expect(first).toHaveAttribute('aria-expanded', 'true');
    await expect(
      page.getByText('You can sign up with your mobile number or with your e-mail address.'),
    ).toBeVisible();
    await second.focus();
    await page.keyboard.press('Enter');
    await expect(second).toHaveAttribute('aria-expanded', 'true');
    await expect(first).toHaveAttribute('aria-expanded', 'false');
    await expect(page.getByText(/keep Premium until the end of the billing cycle/)).toBeVisible();
    await expect(
      page.getByText('You can sign up with your mobile number or with your e-mail address.'),
    ).toBeHidden();
    await expect(page.getByRole('button', { expanded: true })).toHaveCount(1);

    await page.getByRole('button', { name: 'Монгол' }).click();
    await expect(page.getByRole('button', { name: 'Премиум эрхийг хэрхэн цуцлах вэ?' })).toBeVisible();
  });

  test('the terms hold 11 sections and the privacy policy 6, in both languages', async ({ page }) => {
    await page.goto('/help/tos');
    const terms = page.getByRole('region', { name: 'Terms of service' });
    const privacy = page.getByRole('region', { name: 'Privacy policy' });
    await expect(terms.getByRole('heading', { level: 3 })).toHaveCount(11);
    await expect(privacy.getByRole('heading', { level: 3 })).toHaveCount(6);
    await expect(terms.getByText(/at least 30 days before a new price applies/)).toBeVisible();
    await page.getByRole('button', { name: 'Монгол' }).click();
    await expect(
      page.getByRole('region', { name: 'Нууцлалын бодлого' }).getByRole('heading', { level: 3 }),
    ).toHaveCount(6);
  });
});

test.describe('contact page', () => {
  test('shows the contact details and sends feedback that operators can list', async ({ page, request }) => {
    const email = `listener-${Date.now()}@example.mn`;
    await page.goto('/contact');
    await expect(page.getByRole('link', { name: '+976 7700 1234' }).first()).toBeVisible();

    await page.getByRole('button', { name: 'Send feedback' }).click();
    await expect(page.getByText('This field is required.')).toHaveCount(2);
    await expect(page.getByText('Please enter your email address.')).toBeVisible();

    await page.getByLabel('Name', { exact: true }).fill('Bat');
    await expect(page.getByLabel('Email', { exact: true })).toHaveAttribute('type', 'email');
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Feedback', { exact: true }).fill('Please add more throat singing playlists.');
    await page.getByRole('button', { name: 'Send feedback' }).click();
    await expect(
      page.getByRole('status').filter({ hasText: 'Feedback submitted successfully!' }),
    ).toBeVisible();
    await expect(page.getByLabel('Name', { exact: true })).toHaveValue('');
    await expect(page.getByLabel('Email', { exact: true })).toHaveValue('');
    await expect(page.getByLabel('Feedback', { exact: true })).toHaveValue('');

    // The operator's `feedback:list` cannot open the PGlite directory the running server holds
    // (db/lock.ts) and says so; /dev/feedback runs the same command on the server's connection.
    const cli = await promisify(execFile)(process.execPath, [ADMIN_CLI, 'feedback:list'], {
      env: { ...process.env, NODE_ENV: 'development', DATA_DIR: process.env.E2E_DATA_DIR, DATABASE_URL: '' },
    }).then(
      () => ({ refused: '' }),
      (error: { stderr: string }) => ({ refused: error.stderr }),
    );
    expect(cli.refused).toMatch(/DATA_DIR .* is in use by another server \(pid \d+\)/);

    const listing = await request.get(`/dev/feedback?email=${encodeURIComponent(email)}`);
    expect(listing.ok()).toBe(true);
    expect(await listing.text()).toMatch(
      new RegExp(
        `^#\\d+  \\S+  Bat <${email.replace(/[.]/g, '\\.')}>\n    Please add more throat singing playlists\\.\n$`,
      ),
    );
  });

  test('shows the failure alert when sending fails', async ({ page }) => {
    await page.route('**/api/feedback', (route) => route.abort('connectionrefused'));
    await page.goto('/contact');
    await page.getByLabel('Name', { exact: true }).fill('Bat');
    await page.getByLabel('Email', { exact: true }).fill('bat@example.mn');
    await page.getByLabel('Feedback', { exact: true }).fill('Hello');
    await page.getByRole('button', { name: 'Send feedback' }).click();
    await expect(page.getByRole('alert')).toHaveText('Something went wrong');
    await expect(page.getByLabel('Feedback', { exact: true })).toHaveValue('Hello');
  });
});
