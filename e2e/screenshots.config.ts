import { defineConfig } from '@playwright/test';
import base from './playwright.config';

/**
 * The screenshots of docs/screenshots/ (issue 19): `/`, `/premium` and `/profile` at 360 and
 * 1440 px in both languages. Not part of the e2e run; regenerate after a visible change with
 *   npm run build && npx playwright test -c e2e/screenshots.config.ts
 */
export default defineConfig({ ...base, testDir: './screenshots', workers: 1 });
