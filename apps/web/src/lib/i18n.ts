import { DEFAULT_LANGUAGE, LANGUAGE_STORAGE_KEY, LANGUAGES, type Language } from '@tunes/shared/constants';
import i18n, { type InitOptions, type ParseKeys } from 'i18next';
import resourcesToBackend from 'i18next-resources-to-backend';
import { initReactI18next } from 'react-i18next';
import type { Resources } from '@/i18n/resources';

/**
 * One catalogue per language (`i18n/locales/<lang>/`), split into one namespace per feature so
 * a route loads only the texts it shows. English is the source of truth: its keys type every
 * `t(key)` (`i18n/resources.ts`), and a unit test fails when the two languages differ in keys.
 */
export const NAMESPACES = [
  'common',
  'accounts',
  'premium',
  'billing',
  'family',
  'vouchers',
  'content',
  'content-help',
  'ebarimt',
] as const satisfies readonly (keyof Resources)[];
export type Namespace = (typeof NAMESPACES)[number];

/** A key of one namespace, checked against the English catalogue. */
export type TranslationKey<N extends Namespace = 'common'> = ParseKeys<N>;

/** The namespaces a call's failure may name: the site's, and the operator console's `admin`. */
const MESSAGE_NAMESPACES = [...NAMESPACES, 'admin'] as const;

/** A key of any namespace written `namespace:key` (common's also bare), e.g. for the API client. */
export type MessageKey = ParseKeys<typeof MESSAGE_NAMESPACES>;

/** The text of a key of any namespace in the active language. */
export function translate(key: MessageKey): string {
  return i18n.t(key, { ns: MESSAGE_NAMESPACES });
}

/** The messages of the shared schemas (product.md §5): keys of common's `validation`. */
export type ValidationKey = `validation.${keyof Resources['common']['validation'] & string}`;

/** Whether a schema's message is one of the catalogue's validation keys (`i18n.test.ts` checks all). */
export function isValidationKey(message: string): message is ValidationKey {
  return message.startsWith('validation.');
}

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** The language the site shows now: the one a listener signs up in (issue 37). */
export function activeLanguage(): Language {
  return isLanguage(i18n.language) ? i18n.language : DEFAULT_LANGUAGE;
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
  // biome-ignore lint/suspicious/noDocumentCookie: one plain cookie; the Cookie Store API is not in every browser we serve.
  document.cookie = `${LANGUAGE_COOKIE}=${language}; Max-Age=31536000; Path=/; SameSite=Lax`;
}

export class MissingTranslationError extends Error {
  override name = 'MissingTranslationError';
}

const reported = new Set<string>();

/**
 * A key the catalogue lacks. `strict` (development and tests) throws, so the mistake cannot go
 * unseen; otherwise the page shows the product.md's text (product.md §8) and the console gets it once per
 * key and language, where the end-to-end tests fail on it (`e2e/fixtures.ts`).
 */
export function missingTranslation(id: string, language: string, strict: boolean): string {
  const text = `Missing translationId: ${id} for language: ${language}`;
  if (strict) throw new MissingTranslationError(text);
  if (!reported.has(text)) {
    reported.add(text);
    console.error(text);
  }
  return text;
}

/** The i18next options of the site; `instance` answers which language is active. */
export function i18nOptions(
  language: Language,
  instance: { language: string },
  strict: boolean = import.meta.env.DEV,
): InitOptions {
  return {
    lng: language,
    fallbackLng: false,
    supportedLngs: [...LANGUAGES],
    ns: ['common'],
    defaultNS: 'common',
    interpolation: { escapeValue: false },
    returnNull: false,
    parseMissingKeyHandler: (key) => missingTranslation(key, instance.language, strict),
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
