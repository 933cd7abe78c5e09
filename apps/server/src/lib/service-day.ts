import { SERVICE_TIME_ZONE } from '@tunes/shared/constants';

/**
 * The service's own day. Listeners and operators are in Mongolia, so messages name dates and the
 * console counts days as a clock in Ulaanbaatar shows them, whatever zone the server runs in:
 * a period ending at 20:00 UTC ends the next morning there.
 */
export { SERVICE_TIME_ZONE };

/** Ulaanbaatar's offset from UTC: +08:00, without daylight saving (none since 2017). */
const SERVICE_OFFSET_MS = 8 * 60 * 60 * 1000;

const isoDayFormat = new Intl.DateTimeFormat('en-CA', {
  timeZone: SERVICE_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/** The service day of an instant, as `YYYY-MM-DD`. */
export function serviceDay(instant: Date): string {
  return isoDayFormat.format(instant);
}

/** The instant a service day (`YYYY-MM-DD`) begins. */
export function serviceDayStart(day: string): Date {
  return new Date(Date.parse(`${day}T00:00:00.000Z`) - SERVICE_OFFSET_MS);
}
