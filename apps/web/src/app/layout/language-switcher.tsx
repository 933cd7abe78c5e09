import type { Language } from '@tunes/shared/constants';
import { useTranslation } from 'react-i18next';
import { chooseLanguage, useAccountLanguageInLine } from '@/features/accounts/api/update-language';
import { userMessage } from '@/lib/api-error';
import type { TranslationKey } from '@/lib/i18n';
import { toast } from '@/lib/toast';

/** Each language by its own name, so a reader of the other finds it (product.md §1). */
const LANGUAGE_NAMES = {
  en: 'language.en',
  mn: 'language.mn',
} as const satisfies Record<Language, TranslationKey>;

/**
 * The bar above the header that switches between English and Mongolian (product.md §2); a
 * signed-in listener's account follows, so their messages come in the language they read (and
 * an account that differs from the language chosen on this device is brought in line).
 */
export function LanguageSwitcher() {
  const { t, i18n } = useTranslation('common');
  useAccountLanguageInLine();
  return (
    <nav className="language-bar" aria-label={t('language.label')}>
      <ul className="language-bar__list">
        {(Object.entries(LANGUAGE_NAMES) as [Language, TranslationKey][]).map(([language, name]) => (
          <li key={language}>
            <button
              type="button"
              className="language-bar__button"
              lang={language}
              aria-pressed={i18n.language === language}
              onClick={() => chooseLanguage(language).catch((error) => toast.error(userMessage(error)))}
            >
              {t(name)}
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}
