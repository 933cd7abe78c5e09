/** Prices and dates in the active language (DESIGN §5): MNT as "6,900 ₮". */
export function formatPrice(amount: number, currency: string, language: string): string {
  if (currency === 'MNT') {
    return `${new Intl.NumberFormat(language, { maximumFractionDigits: 0 }).format(amount)} ₮`;
  }
  return new Intl.NumberFormat(language, { style: 'currency', currency }).format(amount / 100);
}

export function formatDate(iso: string, language: string): string {
  return new Intl.DateTimeFormat(language, { dateStyle: 'long' }).format(new Date(iso));
}
