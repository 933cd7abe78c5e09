import { existsSync } from 'node:fs';

/**
 * The system Chromium the end-to-end tests drive: CHROME_PATH, else Debian's headless shell
 * (`chromium-headless-shell`, the build Playwright itself runs headless tests in: the e2e layer
 * took ~28 % less time and CPU in it than in the full browser, docs/performance.md), else Debian's
 * /usr/bin/chromium.
 */
export function findChromium(): string | undefined {
  const candidates = [
    process.env.CHROME_PATH,
    '/usr/bin/chromium-headless-shell',
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/usr/bin/google-chrome',
  ];
  return candidates.find((candidate): candidate is string => Boolean(candidate && existsSync(candidate)));
}

export const CHROMIUM_HELP =
  "No Chromium found for the end-to-end tests. Install Debian's headless build as root with\n" +
  '  apt-get update && apt-get install -y chromium-headless-shell\n' +
  '(or chromium), or point CHROME_PATH at a Chromium or Chrome binary.';
