import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import i18next, { type Resource } from 'i18next';
import { describe, expect, it, vi } from 'vitest';
import { MissingTranslationError } from '@/lib/i18n';
import { CONSOLE_RESOURCES, consoleI18nOptions } from './i18n';

const here = path.dirname(fileURLToPath(import.meta.url));

async function consoleInstance(language: 'en' | 'mn', strict: boolean, resources?: Resource) {
  const instance = i18next.createInstance();
  await instance.init({
    ...consoleI18nOptions(language, instance, strict),
    ...(resources ? { resources } : {}),
  });
  return instance;
}

/** A key looked up by its text (the keys here are the console's, or missing on purpose). */
const look = (instance: { t: unknown }, key: string) => (instance.t as (key: string) => string)(key);

type Catalogue = { [key: string]: string | Catalogue };
function text(catalogue: Catalogue, key: string): string | undefined {
  let node: string | Catalogue | undefined = catalogue;
  for (const part of key.split('.')) node = typeof node === 'object' ? node[part] : undefined;
  return typeof node === 'string' ? node : undefined;
}
/** A key with a text, or kept as plural forms (`key_one`, `key_other`) for a count. */
const has = (catalogue: Catalogue, key: string) =>
  text(catalogue, key) !== undefined || text(catalogue, `${key}_other`) !== undefined;

/** Every literal key the console's sources pass to `t('…')`, with its file. */
function literalKeys(dir: string): { key: string; file: string }[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return literalKeys(full);
    if (!/\.tsx?$/.test(entry.name) || entry.name.endsWith('.test.ts')) return [];
    const text = readFileSync(full, 'utf8');
    return [...text.matchAll(/\bt\(\s*'([a-z0-9-]+(?:\.[a-z0-9_-]+)+)'/g)].map((match) => ({
      key: match[1] ?? '',
      file: path.relative(here, full),
    }));
  });
}

describe('the console’s translations', () => {
  it('throw on a missing key in development and tests, naming the key and the language', async () => {
    const instance = await consoleInstance('mn', true, { mn: { admin: { brand: 'Tunes консол' } } });
    expect(look(instance, 'brand')).toBe('Tunes консол');
    expect(() => look(instance, 'nav.feedback')).toThrow(MissingTranslationError);
    expect(() => look(instance, 'nav.feedback')).toThrow(
      'Missing translationId: nav.feedback for language: mn',
    );
  });

  it('throw by default under the test runner, with the console’s own catalogues', async () => {
    const instance = await consoleInstance('en', import.meta.env.DEV);
    expect(look(instance, 'nav.feedback')).toBe('Feedback');
    expect(() => look(instance, 'nav.no-such-section')).toThrow(MissingTranslationError);
  });

  it('report a missing key once in production, where the end-to-end tests fail on it', async () => {
    const report = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const instance = await consoleInstance('en', false);
      expect(look(instance, 'audit.no-such-key')).toBe(
        'Missing translationId: audit.no-such-key for language: en',
      );
      look(instance, 'audit.no-such-key');
      expect(report).toHaveBeenCalledTimes(1);
    } finally {
      report.mockRestore();
    }
  });

  it('have every key the console’s pages name, in English and Mongolian', () => {
    const used = literalKeys(here);
    expect(used.length).toBeGreaterThan(200);
    for (const language of ['en', 'mn'] as const) {
      const catalogue = CONSOLE_RESOURCES[language].admin as unknown as Catalogue;
      const missing = used.filter(({ key }) => !has(catalogue, key));
      expect(missing, `keys missing from admin/locales/${language}/*.json`).toEqual([]);
    }
  });
});
