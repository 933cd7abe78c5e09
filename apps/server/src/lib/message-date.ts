import type { Lang } from './message-language.js';
import { SERVICE_TIME_ZONE } from './service-day.js';

const english = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: SERVICE_TIME_ZONE });
const numeric = new Intl.DateTimeFormat('en-US', {
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  timeZone: SERVICE_TIME_ZONE,
});

/**
 * A date as the recipient of an SMS or e-mail reads it: "December 1, 2026" or, in Mongolian,
 * "2026 оны 12-р сарын 1" built from numeric parts (as the site's `lib/format.ts` does, so a
 * runtime without Mongolian date data writes no English month names), in Ulaanbaatar's day.
 */
export function messageDate(date: Date, lang: Lang): string {
  if (lang === 'en') return english.format(date);
  const parts = numeric.formatToParts(date);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((found) => found.type === type)?.value;
  return `${part('year')} оны ${part('month')}-р сарын ${part('day')}`;
}
