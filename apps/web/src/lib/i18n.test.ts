import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import i18next from 'i18next';
import { describe, expect, it, vi } from 'vitest';
import { i18nOptions, MissingTranslationError } from './i18n';

const localesDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '../i18n/locales');

type Catalogue = { [key: string]: string | Catalogue };

function keysOf(catalogue: Catalogue, prefix = ''): string[] {
  return Object.entries(catalogue).flatMap(([key, value]) =>
    typeof value === 'string' ? [`${prefix}${key}`] : keysOf(value, `${prefix}${key}.`),
  );
}

/** The operator console's own catalogue pair (decision 0020), checked as the namespace `admin`. */
const consoleLocalesDir = path.join(localesDir, '../../admin/locales');

function load(language: string) {
  const dir = path.join(localesDir, language);
  return Object.fromEntries([
    ...readdirSync(dir)
      .filter((file) => file.endsWith('.json'))
      .map((file) => [
        file.replace(/\.json$/, ''),
        JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as Catalogue,
      ]),
    // The console's catalogue is one file a part of the console (`admin/locales/{language}/*.json`).
    [
      'admin',
      Object.assign(
        {},
        ...readdirSync(path.join(consoleLocalesDir, language))
          .filter((file) => file.endsWith('.json'))
          .map(
            (file) =>
              JSON.parse(readFileSync(path.join(consoleLocalesDir, language, file), 'utf8')) as Catalogue,
          ),
      ) as Catalogue,
    ],
  ]);
}

describe('translation catalogues', () => {
  const en = load('en');
  const mn = load('mn');

  it('have the same namespaces in English and Mongolian', () => {
    expect(Object.keys(mn).sort()).toEqual(Object.keys(en).sort());
  });

  for (const namespace of Object.keys(en)) {
    it(`have the same keys in both languages (${namespace})`, () => {
      const enKeys = keysOf(en[namespace] ?? {}).sort();
      const mnKeys = keysOf(mn[namespace] ?? {}).sort();
      expect(
        mnKeys.filter((key) => !enKeys.includes(key)),
        'keys only in mn',
      ).toEqual([]);
      expect(
        enKeys.filter((key) => !mnKeys.includes(key)),
        'keys missing from mn',
      ).toEqual([]);
    });

    it(`have no empty texts and Mongolian in Cyrillic (${namespace})`, () => {
      const flatten = (catalogue: Catalogue, prefix = ''): [string, string][] =>
        Object.entries(catalogue).flatMap(([key, value]) =>
          typeof value === 'string'
            ? [[`${prefix}${key}`, value] as [string, string]]
            : flatten(value, `${prefix}${key}.`),
        );
      const enTexts = flatten(en[namespace] ?? {});
      const mnTexts = flatten(mn[namespace] ?? {});
      expect(enTexts.filter(([, text]) => text.trim() === '').map(([key]) => key)).toEqual([]);
      expect(mnTexts.filter(([, text]) => text.trim() === '').map(([key]) => key)).toEqual([]);
      const cyrillic = mnTexts.filter(([, text]) => /[А-Яа-яӨөҮүЁё]/.test(text)).length;
      // Brand names, e-mail addresses and numbers may stay Latin; most texts must not.
      expect(cyrillic).toBeGreaterThanOrEqual(Math.floor(mnTexts.length * 0.6));
      // One spelling of "e-mail" in Mongolian: имэйл, never и-мэйл.
      expect(mnTexts.filter(([, text]) => /и-мэйл/i.test(text)).map(([key]) => key)).toEqual([]);
    });
  }
});

describe('shared schema messages', () => {
  it('are keys of common validation in both languages', () => {
    const sharedDir = path.join(localesDir, '../../../../../packages/shared/src');
    const used = new Set(
      readdirSync(sharedDir)
        .filter((file) => file.endsWith('.ts'))
        .flatMap((file) => [
          ...readFileSync(path.join(sharedDir, file), 'utf8').matchAll(/'(validation\.[a-z0-9-]+)'/g),
        ])
        .map((match) => match[1] ?? ''),
    );
    expect(used.size).toBeGreaterThan(5);
    for (const language of ['en', 'mn']) {
      const validation = (load(language).common?.validation ?? {}) as Catalogue;
      const missing = [...used].filter(
        (key) => typeof validation[key.slice('validation.'.length)] !== 'string',
      );
      expect(missing, `missing from ${language}/common.json`).toEqual([]);
    }
  });
});

describe('missing translations', () => {
  async function instanceWith(strict: boolean) {
    const instance = i18next.createInstance();
    await instance.init({
      ...i18nOptions('mn', instance, strict),
      resources: { mn: { common: { brand: 'Tunes' } } },
    });
    return instance;
  }

  it('throw in development and tests, naming the key and the language', async () => {
    const instance = await instanceWith(true);
    expect(instance.t('brand')).toBe('Tunes');
    expect(() => instance.t('nav.home')).toThrow(MissingTranslationError);
    expect(() => instance.t('nav.home')).toThrow('Missing translationId: nav.home for language: mn');
  });

  it('throw by default under the test runner', async () => {
    const instance = i18next.createInstance();
    await instance.init({ ...i18nOptions('en', instance), resources: { en: { common: {} } } });
    expect(() => instance.t('loading')).toThrow('Missing translationId: loading for language: en');
  });

  it('show the spec fallback text in production and report it to the console once', async () => {
    const report = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const instance = await instanceWith(false);
      expect(instance.t('nav.faq')).toBe('Missing translationId: nav.faq for language: mn');
      expect(instance.t('nav.faq')).toBe('Missing translationId: nav.faq for language: mn');
      expect(report).toHaveBeenCalledTimes(1);
      expect(report).toHaveBeenCalledWith('Missing translationId: nav.faq for language: mn');
    } finally {
      report.mockRestore();
    }
  });
});
