/**
 * Billing rules without schemas, so the site's forms check them without loading zod.
 * Request and answer schemas are in `billing.ts`.
 */

/** A Mongolian company's state registry number: 7 digits. */
export const COMPANY_REGISTRY_PATTERN = /^\d{7}$/;
/** The validation key for a registry number that is not 7 digits. */
export const COMPANY_REGISTRY_ERROR = 'validation.company-registry';

/** The registry number as typed, trimmed, if it is one; `undefined` if it is not. */
export function companyRegistryOf(typed: string): string | undefined {
  const registry = typed.trim();
  return COMPANY_REGISTRY_PATTERN.test(registry) ? registry : undefined;
}
