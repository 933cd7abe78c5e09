import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Page } from '@playwright/test';
import { baseUrl, bearer, expect, type SignedInUser } from '../fixtures';

/** WCAG 2.2 AA (architecture.md), checked by axe-core. */
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

export const LANGUAGES = ['en', 'mn'] as const;
export const WIDTHS = [360, 1440] as const;

/** Every route the router declares (`<Route path="…"`), so a new page is checked the day it lands. */
export function declaredRoutes(): string[] {
  const router = readFileSync(
    fileURLToPath(new URL('../../apps/web/src/app/router.tsx', import.meta.url)),
    'utf8',
  );
  // The router is a list of `{ path: '/…' }` entries; the two written as patterns are listed by hand.
  const literal = [...router.matchAll(/path:\s*'(\/[^']*)'/g)].map((match) => match[1] ?? '');
  const patterns = ['/help', '/help/faq', '/receipts/no-such-invoice', '/pay/no-such-invoice'];
  const routes = [...new Set([...literal, ...patterns])];
  if (routes.length < 10)
    throw new Error(`Only ${routes.length} routes found in router.tsx: its shape changed`);
  return routes;
}

type Language = (typeof LANGUAGES)[number];

/** What the site shows a visitor who has chosen nothing (product.md §1). */
const SITE_DEFAULT_LANGUAGE: Language = 'en';

/**
 * A text of the site's own catalogue (`namespace:dotted.key`), so tests find controls by the
 * name a person hears in either language.
 */
export function text(language: Language, key: string): string {
  const [namespace, path] = key.split(':') as [string, string];
  const file = fileURLToPath(
    new URL(`../../apps/web/src/i18n/locales/${language}/${namespace}.json`, import.meta.url),
  );
  let value: unknown = JSON.parse(readFileSync(file, 'utf8'));
  for (const part of path.split('.')) value = (value as Record<string, unknown>)[part];
  if (typeof value !== 'string') throw new Error(`No text ${key} in ${language}`);
  return value;
}

/** Opens pages of this context in a language, as a returning visitor whose choice is stored. */
export async function useLanguage(page: Page, language: Language): Promise<void> {
  await page.addInitScript((code) => window.localStorage.setItem('language', code), language);
}

/** Waits until the route's lazy chunk, its translations and its data have arrived. */
export async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  await expect(page.locator('main')).toBeVisible();
}

/**
 * Opens `path` in each language at the first of `widths`, then resizes the window through the
 * others, calling `check` at each with where it is: one load per language rather than one per
 * width (the site's media queries and resize listeners lay the page out again, as they do for a
 * turned phone). Returns every finding.
 */
export async function visitAtWidths(
  page: Page,
  path: string,
  widths: readonly number[],
  check: (page: Page, where: string) => Promise<string[]>,
  ready?: (page: Page) => Promise<void>,
): Promise<string[]> {
  const findings: string[] = [];
  for (const language of LANGUAGES) {
    for (const [index, width] of widths.entries()) {
      await page.setViewportSize({ width, height: 900 });
      if (index === 0) {
        // The stored choice is read at start-up; any page of the site can hold it. A fresh page
        // has none, so it shows the site's default (English, product.md §1) without one.
        const fresh = !page.url().startsWith('http');
        if (!(fresh && language === SITE_DEFAULT_LANGUAGE)) {
          if (fresh) await page.goto('/help');
          await page.evaluate((code) => window.localStorage.setItem('language', code), language);
        }
        await page.goto(path);
        await settle(page);
        await expect(page.locator('html')).toHaveAttribute('lang', language);
        await ready?.(page);
      } else {
        await page.waitForFunction((expected) => window.innerWidth === expected, width);
        // Two frames: what the resize listeners render is committed and laid out.
        await page.evaluate(
          () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
        );
      }
      findings.push(...(await check(page, `${path} ${language} ${width}px`)));
    }
  }
  return findings;
}

/**
 * axe-core's source (the copy AxeBuilder loads), run only where the page has no axe yet.
 * AxeBuilder evaluates its source twice a scan (before and in its legacy run), so a page scanned
 * at two widths started axe four times; once a page load cut a scan by ~14 % (2026-11-28, 6 scans
 * of /premium each way, alternated twice).
 */
const fromAxeBuilder = createRequire(createRequire(import.meta.url).resolve('@axe-core/playwright'));
const AXE_ONCE_PER_PAGE = `if (!window.axe) {\n${readFileSync(fromAxeBuilder.resolve('axe-core/axe.min.js'), 'utf8')}\n}`;

/**
 * Serious and critical axe violations on the page (or inside `include`), one readable line each.
 * `axe.run` in the page itself (legacy mode): the default opens a blank page for every scan to
 * merge each frame's results, for frames of other origins that are not ours to check (the
 * video's player; the iframe element itself is still checked). With only violations detailed,
 * a11y.spec.ts took 251 CPU-seconds against 414 (2026-11-27; 385 with the detail cut alone).
 */
export async function seriousViolations(page: Page, include?: string): Promise<string[]> {
  let builder = new AxeBuilder({ page, axeSource: AXE_ONCE_PER_PAGE })
    .withTags(WCAG_TAGS)
    .options({ resultTypes: ['violations'] })
    .setLegacyMode(true);
  if (include) builder = builder.include(include);
  // Colours are judged as painted, so at rest: a toast fading out (its text at half opacity) fails
  // contrast. The scan sees the page as a reader who asked for no motion does (the toasts' and the
  // site's reduced-motion rules), so no fade starts while it runs; the page's own choice is kept.
  const moving = await page.evaluate(() => !matchMedia('(prefers-reduced-motion: reduce)').matches);
  if (moving) await page.emulateMedia({ reducedMotion: 'reduce' });
  try {
    // Running animations and transitions that end (not a spinner's) finish first; a paused one
    // would never finish, so at most 2 s.
    await page.evaluate(() =>
      Promise.race([
        Promise.all(
          document
            .getAnimations()
            .filter((animation) => animation.effect?.getComputedTiming().endTime !== Number.POSITIVE_INFINITY)
            .map((animation) => animation.finished.catch(() => undefined)),
        ),
        new Promise((resolve) => setTimeout(resolve, 2000)),
      ]),
    );
    const { violations } = await builder.analyze();
    return violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map(
        (violation) =>
          `${violation.id} (${violation.impact}): ${violation.help} — ${violation.nodes
            .slice(0, 4)
            .map((node) => node.target.join(' '))
            .join(' | ')}`,
      );
  } finally {
    if (moving) await page.emulateMedia({ reducedMotion: null });
  }
}

/**
 * Where the page is wider than the window (issue 19: no page scrolls sideways), with the widest
 * elements that make it so; [] when it is not.
 */
export async function sidewaysOverflow(page: Page, where: string): Promise<string[]> {
  const { overflow, culprits } = await page.evaluate(() => {
    const width = window.innerWidth;
    const overflow = document.documentElement.scrollWidth - width;
    // The outermost elements past the right edge that no ancestor clips: what widens the page.
    const clipped = (element: Element) => {
      for (
        let parent = element.parentElement;
        parent && parent !== document.body;
        parent = parent.parentElement
      )
        if (getComputedStyle(parent).overflowX !== 'visible') return true;
      return false;
    };
    const culprits =
      overflow <= 0
        ? []
        : Array.from(document.querySelectorAll('body *'))
            .filter((element) => element.getBoundingClientRect().right > width + 0.5 && !clipped(element))
            .filter((element, _, all) => !all.some((other) => other !== element && other.contains(element)))
            .slice(0, 4)
            .map((element) => {
              const right = Math.round(element.getBoundingClientRect().right);
              const name = `${element.tagName.toLowerCase()}.${Array.from(element.classList).join('.')}`;
              return `${name} (right ${right}px)`;
            });
    return { overflow, culprits };
  });
  return overflow > 0 ? [`${where}: ${overflow}px too wide: ${culprits.join(', ')}`] : [];
}

/** Checks the page at the current state and returns findings labelled with where they were. */
export async function audit(page: Page, where: string): Promise<string[]> {
  return (await seriousViolations(page)).map((finding) => `${where}: ${finding}`);
}

/**
 * Makes `owner` the owner of a Family plan (a dev voucher redeemed through the API) and creates
 * an invitation code on it; returns the code.
 */
export async function familyPlanWithInvitation(
  request: APIRequestContext,
  owner: SignedInUser,
): Promise<string> {
  const auth = bearer(owner.access_token);
  const vouchers = await request.post(`${baseUrl()}/dev/vouchers`, {
    data: { package: 'PREMIUM_FAMILY_1M', days: 30, count: 1 },
  });
  expect(vouchers.status()).toBe(201);
  const [voucher] = ((await vouchers.json()) as { codes: string[] }).codes;
  const redeemed = await request.post(`${baseUrl()}/api/users/redeemvoucher`, {
    headers: auth,
    params: { code: voucher ?? '' },
  });
  expect(redeemed.ok(), await redeemed.text()).toBe(true);
  const profile = await request.get(`${baseUrl()}/api/users/${owner.sub}/profile`, { headers: auth });
  const { Subscriptions } = (await profile.json()) as { Subscriptions: { SubscriptionId: string }[] };
  const subscriptionId = Subscriptions[0]?.SubscriptionId ?? '';
  const created = await request.post(`${baseUrl()}/api/subscription/${subscriptionId}/invitation-code`, {
    headers: auth,
  });
  expect(created.status()).toBe(201);
  return ((await created.json()) as { Code: string }).Code;
}
