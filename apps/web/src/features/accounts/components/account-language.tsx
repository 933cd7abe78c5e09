import { LANGUAGES, type Language } from '@tunes/shared/constants';
import type { Profile } from '@tunes/shared/profile';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { userMessage } from '@/lib/api-error';
import { translate } from '@/lib/i18n';
import { toast } from '@/lib/toast';
import { chooseLanguage } from '../api/update-language';
import styles from './self-service.module.css';

const languageOf = (profile: Profile): Language => (profile.Language === 'mn' ? 'mn' : 'en');

/**
 * The account's language on /profile (issue 37): the one its codes, reminders, receipts and
 * notices are written in, and the site's while signed in. Saved with a button, so moving through
 * the choices with the arrow keys changes nothing until the listener says so.
 */
export function AccountLanguage({ profile }: { profile: Profile }) {
  const { t } = useTranslation('accounts');
  const { t: tCommon } = useTranslation('common');
  const stored = languageOf(profile);
  const [choice, setChoice] = useState<Language>(stored);
  const [saving, setSaving] = useState(false);
  // The bar above the header changes it too: the choice follows the account's.
  useEffect(() => setChoice(stored), [stored]);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    try {
      await chooseLanguage(choice);
      // In the language just chosen: this render's `t` still speaks the one before.
      toast.success(translate('accounts:language.saved'));
    } catch (error) {
      toast.error(userMessage(error));
    } finally {
      setSaving(false);
    }
  };

  return (
    <section className={`card ${styles.card}`} aria-labelledby="account-language-title">
      <h2 id="account-language-title" className={styles.heading}>
        {t('language.title')}
      </h2>
      <p id="account-language-hint" className={styles.intro}>
        {t('language.hint')}
      </p>
      <form onSubmit={save}>
        <fieldset className={styles.choice} aria-describedby="account-language-hint">
          <legend className="visually-hidden">{t('language.legend')}</legend>
          {LANGUAGES.map((language) => (
            <label key={language} lang={language}>
              <input
                type="radio"
                name="account-language"
                value={language}
                checked={choice === language}
                onChange={() => setChoice(language)}
              />
              {tCommon(`language.${language}`)}
            </label>
          ))}
        </fieldset>
        <button type="submit" className="button button--ghost" disabled={saving || choice === stored}>
          {t('language.save')}
        </button>
      </form>
    </section>
  );
}
