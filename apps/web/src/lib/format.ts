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

export function formatDate(iso: string, language: string): string {
  const format = formatter(
    `${language}:date`,
    () => new Intl.DateTimeFormat(language, { dateStyle: 'long' }),
  );
  return format.format(new Date(iso));
}

/**
 * The first `Intl.NumberFormat` of a page costs tens of milliseconds (its locale data loads):
 * done in its own task while the premium page's code and plans are still on their way.
 */
export function preparePriceFormat(language: string): void {
  setTimeout(() => formatPrice(0, 'MNT', language), 0);
}
