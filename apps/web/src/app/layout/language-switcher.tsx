import { LANGUAGES } from '@tunes/shared/constants';
import { useTranslation } from 'react-i18next';

/** The bar above the header that switches between English and Mongolian (product.md §2). */
export function LanguageSwitcher() {
  const { t, i18n } = useTranslation('common');
  return (
    <nav className="language-bar" aria-label={t('language.label')}>
      <ul className="language-bar__list">
        {LANGUAGES.map((language) => (
          <li key={language}>
            <button
              type="button"
              className="language-bar__button"
              lang={language}
              aria-pressed={i18n.language === language}
              onClick={() => void i18n.changeLanguage(language)}
            >
              {t(`language.${language}`)}
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}
