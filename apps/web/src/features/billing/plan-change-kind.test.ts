import { describe, expect, it } from 'vitest';
import { monthlyCost, planChangeKind, seatsOf } from './plan-change-kind';

const plan = (Cost: number, MaxSharedUsers: number, DurationMonths = 1) => ({
  Cost,
  DurationMonths,
  AllowShare: MaxSharedUsers > 0,
  MaxSharedUsers,
});
const premium = plan(6900, 0);
const duo = plan(9900, 1);
const family = plan(17900, 3);

describe('plan change kind', () => {
  it('Duo → Family is an upgrade, Family → Duo a downgrade', () => {
    expect(planChangeKind(duo, family)).toBe('upgrade');
    expect(planChangeKind(family, duo)).toBe('downgrade');
    expect(planChangeKind(duo, premium)).toBe('downgrade');
  });

  it('compares plans of different lengths by their price per month', () => {
    const yearly = plan(70_000, 0, 12);
    expect(monthlyCost(yearly)).toBeCloseTo(5833.33, 1);
    expect(planChangeKind(premium, yearly)).toBe('downgrade');
    expect(planChangeKind(yearly, premium)).toBe('upgrade');
  });

  it('counts the owner among the seats', () => {
    expect([premium, duo, family].map(seatsOf)).toEqual([1, 2, 4]);
  });

  it('calls a change from a plan no longer sold an upgrade, for the server to settle', () => {
    expect(planChangeKind(undefined, premium)).toBe('upgrade');
  });
});
