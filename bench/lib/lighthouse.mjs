import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];

/**
 * Lighthouse (mobile preset with simulated throttling, and the desktop preset) in the system
 * Chromium: the four category scores (0–100) and LCP, TBT (ms) and CLS of each page.
 */
export async function runLighthouse(baseUrl, paths, chromePath) {
  const chrome = await chromeLauncher.launch({
    chromePath,
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  const results = [];
  try {
    for (const path of paths) {
      for (const [preset, config] of [
        ['mobile', undefined],
        ['desktop', desktopConfig],
      ]) {
        const runner = await lighthouse(
          `${baseUrl}${path}`,
          { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: CATEGORIES },
          config,
        );
        const { lhr } = runner;
        const audit = (id) => lhr.audits[id]?.numericValue;
        const failing = Object.values(lhr.audits)
          .filter((entry) => entry.score !== null && entry.score < 0.9 && entry.scoreDisplayMode === 'binary')
          .map((entry) => entry.id);
        results.push({
          path,
          preset,
          scores: Object.fromEntries(
            CATEGORIES.map((id) => [
              id,
              lhr.categories[id] ? Math.round(lhr.categories[id].score * 100) : null,
            ]),
          ),
          lcpMs: Math.round(audit('largest-contentful-paint')),
          tbtMs: Math.round(audit('total-blocking-time')),
          cls: Number(audit('cumulative-layout-shift')?.toFixed(3)),
          fcpMs: Math.round(audit('first-contentful-paint')),
          failingAudits: failing,
          runtimeError: lhr.runtimeError?.message,
        });
      }
    }
  } finally {
    await chrome.kill();
  }
  return results;
}
