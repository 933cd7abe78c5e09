import { LANGUAGE_STORAGE_KEY, LANGUAGES, type Language } from '@tunes/shared/constants';
import i18n, { type InitOptions } from 'i18next';
import { initReactI18next } from 'react-i18next';
import commonEn from '@/i18n/locales/en/common.json';
import contentEn from '@/i18n/locales/en/content.json';
import commonMn from '@/i18n/locales/mn/common.json';
import contentMn from '@/i18n/locales/mn/content.json';
import { i18nOptions, storedLanguage } from '@/lib/i18n';
import adminEn from './locales/en';
import adminMn from './locales/mn';

/**
 * The console's texts: its own catalogue pair (`admin/locales/{en,mn}/*.json`, one file a part, same keys checked by
 * `lib/i18n.test.ts`), bundled whole — an operator's browser loads them once — plus the listener
 * site's `common` (shared form messages) and `content` (the landing page's preview). The options
 * are the site's own (`lib/i18n.ts`): a missing key throws in development and tests and is
 * reported in production, where the end-to-end tests fail on it. The language is the site's
 * stored choice.
 */
export const CONSOLE_RESOURCES = {
  en: { admin: adminEn, common: commonEn, content: contentEn },
  mn: { admin: adminMn, common: commonMn, content: contentMn },
} satisfies Record<Language, object>;

export function consoleI18nOptions(
  language: Language,
  instance: { language: string },
  strict?: boolean,
): InitOptions {
  return {
    ...i18nOptions(language, instance, strict),
    supportedLngs: [...LANGUAGES],
    ns: ['admin', 'common', 'content'],
    defaultNS: 'admin',
    resources: CONSOLE_RESOURCES,
    react: { useSuspense: false },
  };
}

export async function initConsoleI18n() {
  const language = storedLanguage();
  await i18n.use(initReactI18next).init(consoleI18nOptions(language, i18n));
  document.documentElement.lang = language;
  i18n.on('languageChanged', (next) => {
    document.documentElement.lang = next;
    try {
      localStorage.setItem(LANGUAGE_STORAGE_KEY, next);
    } catch {
      // Storage may be unavailable; the choice then lasts for this visit.
    }
  });
}

export { i18n };
