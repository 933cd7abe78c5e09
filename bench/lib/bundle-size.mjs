import { readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';

/**
 * The JavaScript and CSS each route loads, compressed (gzip -9, and brotli as the server sends it
 * to every browser that accepts it), from a real page load in Chromium: all of it after the
 * network settles, and the part requested before the first contentful paint.
 *
 * `routes` holds paths (loaded as a visitor) or `{ route, session }`: loaded as the signed-in
 * listener whose `authData` cookie value `session` is (the pages of /profile are only theirs).
 */
export async function measureRoutes(baseUrl, routes, webDir, chromePath, loads = 3) {
  const browser = await chromium.launch({
    executablePath: chromePath,
    args: ['--no-sandbox', '--disable-gpu'],
  });
  const sizes = new Map();
  const sizeOf = (pathname) => {
    if (!sizes.has(pathname)) {
      const file = readFileSync(path.join(webDir, pathname));
      sizes.set(pathname, {
        raw: file.length,
        gzip: gzipSync(file, { level: 9 }).length,
        brotli: brotliCompressSync(file).length,
      });
    }
    return sizes.get(pathname);
  };
  const results = [];
  async function loadRoute({ route, session }) {
    const context = await browser.newContext({ viewport: { width: 360, height: 800 } });
    if (session)
      await context.addCookies([{ name: 'authData', value: encodeURIComponent(session), url: baseUrl }]);
    const page = await context.newPage();
    await page.goto(`${baseUrl}${route}`, { waitUntil: 'networkidle' });
    const entries = await page.evaluate(() => {
      const paint = performance.getEntriesByName('first-contentful-paint')[0];
      return {
        fcp: paint ? paint.startTime : null,
        resources: performance
          .getEntriesByType('resource')
          .map((entry) => ({ url: entry.name, start: entry.startTime })),
      };
    });
    const own = entries.resources
      .map((entry) => ({ ...entry, pathname: new URL(entry.url).pathname }))
      .filter((entry) => entry.url.startsWith(baseUrl) && /\.(js|css)$/.test(entry.pathname));
    // Module scripts of index.html are fetched before the navigation's resource timing starts.
    const html = readFileSync(path.join(webDir, 'index.html'), 'utf8');
    const shell = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.(?:js|css))"/g)].map(
      (match) => match[1],
    );
    const all = new Map();
    for (const pathname of shell) all.set(pathname, { pathname, beforePaint: true });
    for (const entry of own) {
      const beforePaint = entries.fcp === null || entry.start <= entries.fcp;
      const known = all.get(entry.pathname);
      all.set(entry.pathname, {
        pathname: entry.pathname,
        beforePaint: Boolean(known?.beforePaint || beforePaint),
      });
    }
    const sum = (list, kind, key) =>
      list
        .filter((entry) => entry.pathname.endsWith(kind))
        .reduce((total, entry) => total + sizeOf(entry.pathname)[key], 0);
    const files = [...all.values()];
    const early = files.filter((entry) => entry.beforePaint);
    const result = {
      route: session ? `${route} (signed in)` : route,
      fcpMs: entries.fcp === null ? null : Math.round(entries.fcp),
      jsGzipBytes: sum(files, '.js', 'gzip'),
      cssGzipBytes: sum(files, '.css', 'gzip'),
      jsBrotliBytes: sum(files, '.js', 'brotli'),
      jsBeforeFirstPaintGzipBytes: sum(early, '.js', 'gzip'),
      jsBeforeFirstPaintBrotliBytes: sum(early, '.js', 'brotli'),
      files: files.map((entry) => ({ ...entry, ...sizeOf(entry.pathname) })),
    };
    await context.close();
    return result;
  }
  try {
    for (const asked of routes) {
      const route = typeof asked === 'string' ? { route: asked } : asked;
      // A page paints later on a busy machine, and files its idle time asks for then start
      // before the paint: each route is loaded `loads` times and the median load is kept, with
      // the spread of the early part.
      const measured = [];
      for (let load = 0; load < loads; load++) measured.push(await loadRoute(route));
      measured.sort((a, b) => a.jsBeforeFirstPaintGzipBytes - b.jsBeforeFirstPaintGzipBytes);
      const middle = measured[Math.floor(measured.length / 2)];
      results.push({
        ...middle,
        jsBeforeFirstPaintGzipBytesRange: [
          measured[0].jsBeforeFirstPaintGzipBytes,
          measured[measured.length - 1].jsBeforeFirstPaintGzipBytes,
        ],
        loads: measured.length,
      });
    }
  } finally {
    await browser.close();
  }
  return results;
}
