import type { Language } from '@tunes/shared/constants';
import { useTranslation } from 'react-i18next';
import type { TranslationKey } from '@/lib/i18n';

/** Each language by its own name, so a reader of the other finds it (product.md §1). */
const LANGUAGE_NAMES = {
  en: 'language.en',
  mn: 'language.mn',
} as const satisfies Record<Language, TranslationKey>;

/** The bar above the header that switches between English and Mongolian (product.md §2). */
export function LanguageSwitcher() {
  const { t, i18n } = useTranslation('common');
  return (
    <nav className="language-bar" aria-label={t('language.label')}>
      <ul className="language-bar__list">
        {Object.entries(LANGUAGE_NAMES).map(([language, name]) => (
          <li key={language}>
            <button
              type="button"
              className="language-bar__button"
              lang={language}
              aria-pressed={i18n.language === language}
              onClick={() => void i18n.changeLanguage(language)}
            >
              {t(name)}
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}
