import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatDate, formatDateTime, formatPrice } from './format';

/** Noon local time, so the day is the same in every time zone the tests run in. */
const localNoon = (year: number, month: number, day: number) =>
  new Date(year, month - 1, day, 12).toISOString();

describe('formatPrice', () => {
  it('writes the spec prices in English as 6,900 ₮', () => {
    expect(formatPrice(6900, 'MNT', 'en')).toBe('6,900 ₮');
    expect(formatPrice(9900, 'MNT', 'en')).toBe('9,900 ₮');
    expect(formatPrice(17900, 'MNT', 'en')).toBe('17,900 ₮');
  });

  it('groups digits the Mongolian way in Mongolian', () => {
    expect(formatPrice(17900, 'MNT', 'mn')).toBe(`${new Intl.NumberFormat('mn').format(17900)} ₮`);
  });
});

describe('formatDate', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('writes a Mongolian date from numeric parts: 2026 оны 12-р сарын 23', () => {
    expect(formatDate(localNoon(2026, 12, 23), 'mn')).toBe('2026 оны 12-р сарын 23');
    expect(formatDate(localNoon(2027, 1, 5), 'mn')).toBe('2027 оны 1-р сарын 5');
  });

  it('matches the full-ICU Mongolian medium date where the runtime has one', () => {
    const date = localNoon(2026, 3, 9);
    const native = new Intl.DateTimeFormat('mn', { dateStyle: 'medium' }).format(new Date(date));
    if (/оны/.test(native)) expect(formatDate(date, 'mn')).toBe(native);
  });

  it('reads Mongolian even where the runtime has no Mongolian date data (it falls back to English)', async () => {
    const original = Intl.DateTimeFormat;
    // A browser without Mongolian data resolves 'mn' to English: month names would be English.
    // A constructor (the formatters are made with `new`), put back after for the files that follow
    // in the same module graph; the module loaded afresh, so no formatter made before is reused.
    Intl.DateTimeFormat = new Proxy(original, {
      construct: (target, [locale, options]) => new target(locale === 'mn' ? 'en' : locale, options),
    });
    try {
      vi.resetModules();
      const fresh = await import('./format');
      const shown = fresh.formatDate(localNoon(2026, 12, 24), 'mn');
      expect(shown).toBe('2026 оны 12-р сарын 24');
      expect(shown).not.toMatch(/[A-Za-z]/);
    } finally {
      Intl.DateTimeFormat = original;
    }
  });

  it('writes English with the month name', () => {
    expect(formatDate(localNoon(2026, 12, 23), 'en')).toBe('December 23, 2026');
  });

  it('takes a regional Mongolian tag as Mongolian', () => {
    expect(formatDate(localNoon(2026, 6, 1), 'mn-MN')).toBe('2026 оны 6-р сарын 1');
  });
});

describe('formatDateTime', () => {
  it('adds a 24-hour time to the Mongolian date', () => {
    const iso = new Date(2026, 11, 23, 9, 5).toISOString();
    expect(formatDateTime(iso, 'mn')).toBe('2026 оны 12-р сарын 23, 09:05');
  });

  it('writes English in the medium style with a time', () => {
    const iso = new Date(2026, 11, 23, 9, 5).toISOString();
    expect(formatDateTime(iso, 'en')).toBe('Dec 23, 2026, 9:05 AM');
  });
});
