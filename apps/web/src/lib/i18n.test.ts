import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { i18nOptions } from './i18n';

const localesDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '../i18n/locales');

type Catalogue = { [key: string]: string | Catalogue };

function keysOf(catalogue: Catalogue, prefix = ''): string[] {
  return Object.entries(catalogue).flatMap(([key, value]) =>
    typeof value === 'string' ? [`${prefix}${key}`] : keysOf(value, `${prefix}${key}.`),
  );
}

function load(language: string) {
  const dir = path.join(localesDir, language);
  return Object.fromEntries(
    readdirSync(dir)
      .filter((file) => file.endsWith('.json'))
      .map((file) => [
        file.replace(/\.json$/, ''),
        JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as Catalogue,
      ]),
  );
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
    });
  }
});

describe('missing translations', () => {
  it('show the spec fallback text naming the key and the language', async () => {
    const instance = i18next.createInstance();
    await instance.init({
      ...i18nOptions('mn', instance),
      resources: { mn: { common: { present: 'Байна' } } },
    });
    expect(instance.t('present')).toBe('Байна');
    expect(instance.t('nav.nowhere')).toBe('Missing translationId: nav.nowhere for language: mn');
  });
});
