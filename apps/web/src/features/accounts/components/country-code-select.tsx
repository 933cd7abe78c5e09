import { getCountries, getCountryCallingCode } from 'libphonenumber-js';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CountryCodeField, type CountryListProps } from './country-code-field';
import styles from './login-modal.module.css';

interface CountryOption {
  iso2: string;
  name: string;
  dialCode: number;
}

type RegionNames = Record<string, string>;

/**
 * Region names for languages a browser's `Intl` may lack: some builds (e.g. Debian's Chromium)
 * ship no Mongolian locale data and would name every country in English. Loaded only then.
 */
const FALLBACK_REGION_NAMES: Record<string, () => Promise<RegionNames>> = {
  mn: async () => {
    const { countries } = (await import('i18n-iso-countries/langs/mn.json')).default as {
      countries: Record<string, string | string[]>;
    };
    return Object.fromEntries(
      Object.entries(countries).map(([iso2, name]) => [iso2, Array.isArray(name) ? (name[0] ?? iso2) : name]),
    );
  },
};

function intlKnows(language: string): boolean {
  try {
    return Intl.DisplayNames.supportedLocalesOf([language]).length > 0;
  } catch {
    return false;
  }
}

/** Region names from the library when this browser's `Intl` cannot name regions in `language`. */
function useFallbackRegionNames(language: string): RegionNames | undefined {
  const [loaded, setLoaded] = useState<{ language: string; names: RegionNames }>();
  useEffect(() => {
    const load = FALLBACK_REGION_NAMES[language];
    if (!load || intlKnows(language)) return;
    let current = true;
    load()
      .then((names) => {
        if (current) setLoaded({ language, names });
      })
      .catch((error: unknown) => console.error('region names failed to load', error));
    return () => {
      current = false;
    };
  }, [language]);
  return loaded?.language === language ? loaded.names : undefined;
}

/** Intl's region names in `language` only (no English fallback); undefined where Intl has none. */
function intlRegionNames(language: string): ((iso2: string) => string | undefined) | undefined {
  if (!intlKnows(language)) return undefined;
  const names = new Intl.DisplayNames([language], { type: 'region', fallback: 'none' });
  return (iso2) => {
    const name = names.of(iso2);
    return name && name !== iso2 ? name : undefined;
  };
}

/**
 * The world's dial codes from libphonenumber-js, named with Intl.DisplayNames in `language` (or
 * `fallbackNames` where this browser's Intl does not know the language) and sorted with that
 * language's Intl.Collator. A territory with no name in the language (Ascension, Tristan da Cunha
 * in Mongolian) comes last under its English name, never untranslated at the top.
 */
export function countryOptions(language: string, fallbackNames?: RegionNames): CountryOption[] {
  const localName = intlRegionNames(language);
  const englishNames = new Intl.DisplayNames(['en'], { type: 'region' });
  const collator = new Intl.Collator(language);
  const named: CountryOption[] = [];
  const unnamed: CountryOption[] = [];
  for (const iso2 of getCountries()) {
    const dialCode = Number(getCountryCallingCode(iso2));
    const name = localName?.(iso2) ?? fallbackNames?.[iso2];
    if (name) named.push({ iso2, name, dialCode });
    else unnamed.push({ iso2, name: englishNames.of(iso2) ?? iso2, dialCode });
  }
  const byName = (a: CountryOption, b: CountryOption) => collator.compare(a.name, b.name);
  return [...named.sort(byName), ...unnamed.sort(byName)];
}

/** The searchable list of dial codes behind `CountryCodeField`'s button (its own chunk on login). */
export function CountryCodeList({ value, listId, onChoose, onClose }: CountryListProps) {
  const { t, i18n } = useTranslation('accounts');
  const [search, setSearch] = useState('');
  const fallbackNames = useFallbackRegionNames(i18n.language);
  const options = useMemo(() => countryOptions(i18n.language, fallbackNames), [i18n.language, fallbackNames]);
  const term = search.trim().toLowerCase().replace(/^\+/, '');
  const visible = term
    ? options.filter(
        (option) =>
          option.name.toLowerCase().includes(term) ||
          String(option.dialCode).startsWith(term) ||
          option.iso2.toLowerCase() === term,
      )
    : options;

  return (
    <>
      <input
        className="input"
        type="search"
        aria-label={t('mobile.search-country')}
        placeholder={t('mobile.search-country')}
        value={search}
        // biome-ignore lint/a11y/noAutofocus: the search field is what the user opened the list for.
        autoFocus
        onChange={(event) => setSearch(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            // Closes the list only, not a dialog the select sits in.
            event.preventDefault();
            onClose();
          }
          if (event.key === 'Enter' && visible[0]) onChoose(visible[0].dialCode);
        }}
      />
      <ul id={listId} className={styles.countryList} aria-label={t('mobile.country-code')}>
        {visible.map((option) => (
          <li key={option.iso2}>
            <button
              type="button"
              className={styles.countryOption}
              aria-label={`${option.name} +${option.dialCode}`}
              aria-current={option.dialCode === value ? 'true' : undefined}
              onClick={() => onChoose(option.dialCode)}
            >
              <span>{option.name}</span>
              <span className={styles.dial}>+{option.dialCode}</span>
            </button>
          </li>
        ))}
        {visible.length === 0 && <li className={styles.muted}>{t('mobile.no-country')}</li>}
      </ul>
    </>
  );
}

/** Searchable dial-code dropdown (product.md §2), Mongolia +976 by default. */
export function CountryCodeSelect(props: { value: number; onChange(dialCode: number): void }) {
  return <CountryCodeField {...props} List={CountryCodeList} />;
}
