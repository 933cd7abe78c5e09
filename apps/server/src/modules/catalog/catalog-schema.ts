import { contentImportSchema } from '@tunes/shared/content';
import { merchantCodeSchema } from '@tunes/shared/premium';
import { TRIAL_DAYS_MAX } from '@tunes/shared/trials';
import { type core, z } from 'zod';

/**
 * The file `npm run admin -- catalog:import <file>` reads (JSON or YAML, docs/operations.md
 * "Catalog"): the plans on sale with their prices and seats, and optionally the landing content
 * in the shape `content:import` takes. `catalog/demo.yaml` is one, the demo data of development.
 */

const MAX_AMOUNT = 1_000_000_000;
const TRIAL_DAYS_MESSAGE = `must be a whole number of days from 0 to ${TRIAL_DAYS_MAX}`;

/** "is required" for a missing field, `message` for a wrong one. */
const says = (message: string) => ({
  error: (issue: core.$ZodRawIssue) => (issue.input === undefined ? 'is required' : message),
});

const text = (max: number) =>
  z
    .string(says('must be text'))
    .trim()
    .min(1, 'must not be empty')
    .max(max, `must be at most ${max} characters`);

/** A text in both languages of the site. */
const bothLanguages = (max: number) =>
  z.strictObject({ en: text(max), mn: text(max) }, says('must give the text in en and mn'));

const amount = z
  .number(says('must be a whole number (6900 for 6,900 ₮)'))
  .int('must be a whole number (6900 for 6,900 ₮)')
  .max(MAX_AMOUNT, `must be at most ${MAX_AMOUNT}`);

export const catalogPlanSchema = z
  .strictObject(
    {
      /** The plan code the site sends at checkout; a plan keeps it for life. */
      code: merchantCodeSchema,
      /** `premium`, `premium-duo` and `premium-family` are sold on /premium; others stay hidden. */
      offer: z
        .string(says('must be an offer such as premium'))
        .regex(/^[a-z0-9][a-z0-9-]{0,39}$/, 'must be lower-case letters, digits and - (premium-family)'),
      name: bothLanguages(100),
      description: bothLanguages(500).optional(),
      price: amount.min(1, 'must be at least 1'),
      /** The price before a discount, shown struck through. */
      originalPrice: amount.nullable().optional(),
      currency: z
        .string(says('must be a currency code such as MNT'))
        .regex(/^[A-Z]{3}$/, 'must be a three-letter currency code such as MNT'),
      months: z
        .number(says('must be a whole number of months'))
        .int('must be a whole number of months')
        .min(1, 'must be at least 1')
        .max(36, 'must be at most 36')
        .default(1),
      /** Accounts one subscription holds, the owner's included: 1 alone, 2 Duo, 4 Family. */
      seats: z
        .number(says('must be a whole number of accounts, the owner included'))
        .int('must be a whole number of accounts, the owner included')
        .min(1, 'must be at least 1 (the owner)')
        .max(10, 'must be at most 10'),
      /** A short label on the plan's card (Most popular), in both languages. */
      badge: bothLanguages(40).optional(),
      /** A first-time trial's free days, once per person (docs/decisions/0045-trials.md); 0: none. */
      trialDays: z
        .number(says(TRIAL_DAYS_MESSAGE))
        .int(TRIAL_DAYS_MESSAGE)
        .min(0, TRIAL_DAYS_MESSAGE)
        .max(TRIAL_DAYS_MAX, TRIAL_DAYS_MESSAGE)
        .default(0),
      /** false: no new sales (retired); subscribers keep it and renew. */
      onSale: z.boolean(says('must be true or false')).default(true),
    },
    says('must be a plan'),
  )
  .superRefine((plan, ctx) => {
    if (plan.originalPrice != null && plan.originalPrice <= plan.price) {
      ctx.addIssue({
        code: 'custom',
        path: ['originalPrice'],
        message: `must be more than price (${plan.price}), or left out when there is no discount`,
      });
    }
  });
export type CatalogPlan = z.infer<typeof catalogPlanSchema>;

export const catalogFileSchema = z.strictObject(
  {
    /** The merchant whose plans the site sells (`GET /api/merchants`). */
    merchant: z.strictObject({ name: text(100) }, says('must be { name }')).optional(),
    /** In the order /premium shows them. */
    plans: z
      .array(catalogPlanSchema, says('must be a list of plans'))
      .min(1, 'must list at least one plan')
      .max(100),
    /** The landing content, as `content:import` takes it; left as it is when absent. */
    content: contentImportSchema.optional(),
  },
  says('must be an object with plans (and merchant, content)'),
);
export type CatalogFile = z.infer<typeof catalogFileSchema>;
/** What an author writes (defaults not yet applied). */
export type CatalogFileInput = z.input<typeof catalogFileSchema>;

/** `plans[2].price`: where a problem is, as the author finds it in the file. */
export function entryPath(path: readonly PropertyKey[]): string {
  let text = '';
  for (const key of path) {
    text += typeof key === 'number' ? `[${key}]` : `${text ? '.' : ''}${String(key)}`;
  }
  return text || '(file)';
}

export interface CatalogProblem {
  /** Where, as `entryPath` writes it. */
  path: string;
  message: string;
}

/** The zod issues as problems an author can act on; an unknown field is named by its own path. */
export function problemsOf(error: z.ZodError): CatalogProblem[] {
  return error.issues.flatMap((issue) => {
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({
        path: entryPath([...issue.path, key]),
        message: 'is not a known field',
      }));
    }
    const missing = issue.code === 'invalid_type' && issue.message.endsWith('received undefined');
    return [{ path: entryPath(issue.path), message: missing ? 'is required' : issue.message }];
  });
}

/**
 * A code listed twice, found in the raw file so it is named with every other problem (zod runs
 * a list's own checks only once each entry is valid).
 */
export function duplicateCodes(input: unknown): CatalogProblem[] {
  const plans = (input as { plans?: unknown } | null)?.plans;
  if (!Array.isArray(plans)) return [];
  const first = new Map<string, number>();
  const problems: CatalogProblem[] = [];
  plans.forEach((plan: unknown, index) => {
    const code = (plan as { code?: unknown } | null)?.code;
    if (typeof code !== 'string') return;
    const key = code.trim();
    const earlier = first.get(key);
    if (earlier === undefined) first.set(key, index);
    else problems.push({ path: `plans[${index}].code`, message: `${key} is already plans[${earlier}].code` });
  });
  return problems;
}
