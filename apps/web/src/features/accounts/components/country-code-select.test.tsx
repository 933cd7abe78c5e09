import { describe, expect, it } from 'vitest';
import { countryOptions } from './country-code-select';

const latin = /[A-Za-z]/;

describe('countryOptions', () => {
  it('names countries in Mongolian, sorted with the Mongolian collator; untranslated names only at the end', () => {
    const options = countryOptions('mn');
    const firstLatin = options.findIndex((option) => latin.test(option.name));
    const cyrillic = firstLatin === -1 ? options : options.slice(0, firstLatin);
    expect(cyrillic.length).toBeGreaterThan(200);
    expect(cyrillic.every((option) => !latin.test(option.name))).toBe(true);
    if (firstLatin !== -1)
      expect(options.slice(firstLatin).every((option) => latin.test(option.name))).toBe(true);
    const collator = new Intl.Collator('mn');
    const names = cyrillic.map((option) => option.name);
    expect(names).toEqual([...names].sort(collator.compare));
    expect(options.find((option) => option.iso2 === 'MN')).toMatchObject({ dialCode: 976 });
  });

  it('uses the library names where Intl lacks the language, and puts codes it cannot name last', () => {
    const options = countryOptions('zz', { MN: 'Монгол', FR: 'Франц' });
    expect(options.slice(0, 2).map((option) => option.name)).toEqual(['Монгол', 'Франц']);
    expect(options.length).toBeGreaterThan(200);
  });

  it('sorts English names with the English collator', () => {
    const names = countryOptions('en').map((option) => option.name);
    expect(names[0]).toBe('Afghanistan');
    expect(names).toEqual([...names].sort(new Intl.Collator('en').compare));
  });
});
