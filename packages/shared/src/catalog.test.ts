import { describe, expect, it } from 'vitest';
import { PLAN_MESSAGES, planBadgeSchema, planCreateSchema, planOrderSchema } from './catalog.js';

const plan = (overrides: Record<string, unknown> = {}) => ({
  code: 'PREMIUM_TRIO_1M',
  offer: 'premium-family',
  nameEn: 'Premium Trio',
  nameMn: 'Премиум Гурав',
  descriptionEn: '',
  descriptionMn: '',
  price: 14900,
  months: 1,
  seats: 3,
  ...overrides,
});

/** The first message on each field a plan is refused for. */
function refusals(input: unknown): Record<string, string> {
  const result = planCreateSchema.safeParse(input);
  if (result.success) return {};
  const found: Record<string, string> = {};
  for (const issue of result.error.issues) found[issue.path.join('.')] ??= issue.message;
  return found;
}

describe('the console plan schemas', () => {
  it('takes a plan in both languages, 1 or 12 months, 1–6 seats', () => {
    expect(refusals(plan())).toEqual({});
    expect(refusals(plan({ offer: 'premium-annual', months: 12, seats: 6 }))).toEqual({});
  });

  it('names each bad field in words an API client can act on', () => {
    expect(refusals(plan({ price: 0, months: 3, seats: 7, nameMn: ' ', code: 'trio' }))).toEqual({
      price: PLAN_MESSAGES.price,
      months: PLAN_MESSAGES.months,
      seats: PLAN_MESSAGES.seats,
      nameMn: PLAN_MESSAGES.name,
      code: PLAN_MESSAGES.code,
    });
  });

  it('holds the kinds /premium sells to the spec: one month; Premium 1 seat, Duo 2, Family up to 4', () => {
    expect(refusals(plan({ seats: 5 }))).toEqual({ seats: PLAN_MESSAGES.seatsFamily });
    expect(refusals(plan({ offer: 'premium-duo', seats: 3 }))).toEqual({ seats: PLAN_MESSAGES.seatsDuo });
    expect(refusals(plan({ offer: 'premium', seats: 1, months: 12 }))).toEqual({
      months: PLAN_MESSAGES.offerMonths,
    });
  });

  it('wants a badge in both languages or neither, and each plan once in an order', () => {
    expect(planBadgeSchema.safeParse({ en: 'Best value', mn: '' }).success).toBe(false);
    expect(planBadgeSchema.safeParse({ en: '', mn: '' }).success).toBe(true);
    expect(planOrderSchema.safeParse({ codes: ['A', 'A'] }).success).toBe(false);
  });
});
