import { DEFAULT_LANGUAGE, LANGUAGE_STORAGE_KEY, LANGUAGES, type Language } from '@tunes/shared/constants';
import i18n, { type InitOptions } from 'i18next';
import resourcesToBackend from 'i18next-resources-to-backend';
import { initReactI18next } from 'react-i18next';

/**
 * One catalogue per language (`i18n/locales/<lang>/`), split into one namespace per feature so
 * a route loads only the texts it shows. English is the source of truth; a unit test fails when
 * the two languages differ in keys.
 */
export const NAMESPACES = [
  'common',
  'accounts',
  'premium',
  'family',
  'vouchers',
  'content',
  'content-help',
] as const;
export type Namespace = (typeof NAMESPACES)[number];

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** The stored language, else English (product.md §1). */
export function storedLanguage(): Language {
  try {
    const stored = localStorage.getItem(LANGUAGE_STORAGE_KEY);
    return isLanguage(stored) ? stored : DEFAULT_LANGUAGE;
  } catch {
    return DEFAULT_LANGUAGE;
  }
}

/**
 * The language also goes into a cookie, so the server can prerender the static pages in it
 * (apps/server/src/plugins/prerender.ts); localStorage stays the source of truth (product.md §1).
 */
export const LANGUAGE_COOKIE = 'lang';
function rememberLanguage(language: string) {
  document.cookie = `${LANGUAGE_COOKIE}=${language}; Max-Age=31536000; Path=/; SameSite=Lax`;
}

export function missingTranslation(id: string, language: string): string {
  return `Missing translationId: ${id} for language: ${language}`;
}

/** The i18next options of the site; `instance` answers which language is active. */
export function i18nOptions(language: Language, instance: { language: string }): InitOptions {
  return {
    lng: language,
    fallbackLng: false,
    supportedLngs: [...LANGUAGES],
    ns: ['common'],
    defaultNS: 'common',
    interpolation: { escapeValue: false },
    returnNull: false,
    parseMissingKeyHandler: (key) => missingTranslation(key, instance.language),
    react: { useSuspense: true },
  };
}

/** Starts i18next with `common` and the given namespaces (the first page's), loaded in parallel. */
export async function initI18n(language: Language = storedLanguage(), namespaces: readonly Namespace[] = []) {
  await i18n
    .use(initReactI18next)
    .use(
      resourcesToBackend(
        (language: string, namespace: string) => import(`../i18n/locales/${language}/${namespace}.json`),
      ),
    )
    .init({ ...i18nOptions(language, i18n), ns: ['common', ...namespaces] });
  if (typeof document === 'undefined') return i18n; // rendered on the server (entry-server.tsx)
  document.documentElement.lang = language;
  rememberLanguage(language);
  i18n.on('languageChanged', (next) => {
    document.documentElement.lang = next;
    try {
      localStorage.setItem(LANGUAGE_STORAGE_KEY, next);
    } catch {
      // Storage may be unavailable (private mode); the choice then lasts for this visit.
    }
    rememberLanguage(next);
  });
  return i18n;
}

export { i18n };
