import { LANGUAGE_STORAGE_KEY, type Language } from '@tunes/shared/constants';
import type { Profile } from '@tunes/shared/profile';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { apiRequest } from '@/lib/api-client';
import { profileQueryKey, useProfile } from '@/lib/auth';
import { i18n, isLanguage } from '@/lib/i18n';
import { queryClient } from '@/lib/query-client';
import { readSession } from '@/lib/session';

/**
 * `PATCH /api/users/me/details` with `Language` alone: the language every message to the account
 * is written in (codes, reminders, receipts, family notices).
 */
export function saveAccountLanguage(language: Language): Promise<Profile> {
  return apiRequest<Profile>('/api/users/me/details', {
    method: 'PATCH',
    json: { Language: language },
    auth: true,
    errors: { messages: { other: 'language.save-failed' } },
  });
}

/** The last save asked for: choices made quickly one after another reach the server in order. */
let saving: Promise<unknown> = Promise.resolve();

/**
 * The listener chooses a language (the bar above the header, or /profile): the site shows it at
 * once and stores it (product.md §1), and a signed-in listener's account takes it too, so every
 * message comes in it (issue 37). Settles once both have it (the site alone for a visitor).
 */
export async function chooseLanguage(language: Language): Promise<void> {
  const shown = i18n.changeLanguage(language);
  const session = readSession();
  const known = session && queryClient.getQueryData<Profile>(profileQueryKey(session.sub));
  if (!session || known?.Language === language) {
    await shown;
    return;
  }
  // The account changes once the page shows the language: an account newer than the page would
  // look like a difference to bring in line (useAccountLanguageInLine) and be set back.
  const saved = saving
    .catch(() => undefined)
    .then(() => shown)
    .then(() => saveAccountLanguage(language))
    .then((profile) => {
      queryClient.setQueryData(profileQueryKey(profile.UserId), profile);
    });
  saving = saved;
  await Promise.all([shown, saved]);
}

/** Whether the listener chose the site's language on this device (it is stored only once chosen). */
function languageChosenHere(): boolean {
  try {
    return isLanguage(localStorage.getItem(LANGUAGE_STORAGE_KEY));
  } catch {
    return false;
  }
}

/** The accounts brought to the device's language already, so each is asked once per page. */
const broughtInLine = new Set<string>();

/**
 * A signed-in listener who reads the site in a language they chose on this device has the account
 * follow it when the two differ: they may have chosen it before signing in, and accounts made
 * before issue 37 all say English. A device where no language was ever chosen changes nothing, so
 * signing in on a new browser keeps the account's language.
 */
export function useAccountLanguageInLine(): void {
  const { i18n: active } = useTranslation('common');
  const { data: profile } = useProfile();
  const language = active.language;
  useEffect(() => {
    if (!profile || !isLanguage(language) || profile.Language === language) return;
    const key = `${profile.UserId}:${language}`;
    if (broughtInLine.has(key) || !languageChosenHere()) return;
    broughtInLine.add(key);
    chooseLanguage(language).catch((error: unknown) => console.error('saving the language failed', error));
  }, [profile, language]);
}
