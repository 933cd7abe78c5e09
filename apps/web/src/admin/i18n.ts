import { DEFAULT_LANGUAGE, LANGUAGE_STORAGE_KEY, type Language } from '@tunes/shared/constants';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import commonEn from '@/i18n/locales/en/common.json';
import contentEn from '@/i18n/locales/en/content.json';
import commonMn from '@/i18n/locales/mn/common.json';
import contentMn from '@/i18n/locales/mn/content.json';
import adminEn from './locales/en.json';
import adminMn from './locales/mn.json';

/**
 * The console's texts: its own catalogue pair (`admin/locales`, same keys checked by
 * `lib/i18n.test.ts`), bundled whole — an operator's browser loads them once — plus the listener
 * site's `common` and `content` for the landing page's preview. The language is the site's own
 * stored choice.
 */
export function storedConsoleLanguage(): Language {
  try {
    const stored = localStorage.getItem(LANGUAGE_STORAGE_KEY);
    return stored === 'en' || stored === 'mn' ? stored : DEFAULT_LANGUAGE;
  } catch {
    return DEFAULT_LANGUAGE;
  }
}

export async function initConsoleI18n() {
  const language = storedConsoleLanguage();
  await i18n.use(initReactI18next).init({
    lng: language,
    fallbackLng: false,
    supportedLngs: ['en', 'mn'],
    ns: ['admin', 'common', 'content'],
    defaultNS: 'admin',
    interpolation: { escapeValue: false },
    returnNull: false,
    resources: {
      en: { admin: adminEn, common: commonEn, content: contentEn },
      mn: { admin: adminMn, common: commonMn, content: contentMn },
    },
  });
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
