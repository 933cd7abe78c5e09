/**
 * Building an `Intl` formatter costs far more than using one (a large part of the /premium
 * render on a slow phone), so each language and currency gets one and keeps it.
 */
const formatters = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();

function formatter<T extends Intl.NumberFormat | Intl.DateTimeFormat>(key: string, create: () => T): T {
  let found = formatters.get(key) as T | undefined;
  if (!found) {
    found = create();
    formatters.set(key, found);
  }
  return found;
}

/** Prices and dates in the active language (architecture.md): MNT as "6,900 ₮". */
export function formatPrice(amount: number, currency: string, language: string): string {
  if (currency === 'MNT') {
    const format = formatter(
      `${language}:MNT`,
      () => new Intl.NumberFormat(language, { maximumFractionDigits: 0 }),
    );
    return `${format.format(amount)} ₮`;
  }
  const format = formatter(
    `${language}:${currency}`,
    () => new Intl.NumberFormat(language, { style: 'currency', currency }),
  );
  return format.format(amount / 100);
}

/**
 * Mongolian dates are built from numeric parts, "2026 оны 12-р сарын 23" (CLDR's medium Mongolian
 * date): a browser without Mongolian date data (Chromium builds without full ICU) would
 * otherwise fall back to English month names. The parts still come from `Intl`, so the day is
 * the one of the viewer's time zone, as in English.
 */
function mongolianDate(date: Date): string {
  const parts = formatter(
    'numeric-date',
    () => new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'numeric', day: 'numeric' }),
  ).formatToParts(date);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((found) => found.type === type)?.value;
  return `${part('year')} оны ${part('month')}-р сарын ${part('day')}`;
}

/** A 24-hour "10:05" in the viewer's time zone (Mongolian and English alike use it here). */
function mongolianTime(date: Date): string {
  return formatter(
    'time-24h',
    () => new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }),
  ).format(date);
}

const isMongolian = (language: string) => language.toLowerCase().split('-')[0] === 'mn';

/** A date in the active language: "December 23, 2026" or "2026 оны 12-р сарын 23". */
export function formatDate(iso: string, language: string): string {
  const date = new Date(iso);
  if (isMongolian(language)) return mongolianDate(date);
  const format = formatter(
    `${language}:date`,
    () => new Intl.DateTimeFormat(language, { dateStyle: 'long' }),
  );
  return format.format(date);
}

/** A date and time: "Dec 23, 2026, 10:05 AM" or "2026 оны 12-р сарын 23, 10:05". */
export function formatDateTime(iso: string, language: string): string {
  const date = new Date(iso);
  if (isMongolian(language)) return `${mongolianDate(date)}, ${mongolianTime(date)}`;
  const format = formatter(
    `${language}:date-time`,
    () => new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }),
  );
  return format.format(date);
}

/**
 * The first `Intl.NumberFormat` of a page costs tens of milliseconds (its locale data loads):
 * done in its own task while the premium page's code and plans are still on their way.
 */
export function preparePriceFormat(language: string): void {
  setTimeout(() => formatPrice(0, 'MNT', language), 0);
}
