import { describe, expect, it } from 'vitest';
import { serviceDay, serviceDayStart } from './service-day.js';

describe('the service day (Ulaanbaatar, UTC+8)', () => {
  it('turns at 16:00 UTC', () => {
    expect(serviceDay(new Date('2027-01-31T15:59:59Z'))).toBe('2027-01-31');
    expect(serviceDay(new Date('2027-01-31T16:00:00Z'))).toBe('2027-02-01');
  });

  it('begins at the instant its own day is first seen', () => {
    const start = serviceDayStart('2027-02-01');
    expect(start.toISOString()).toBe('2027-01-31T16:00:00.000Z');
    expect(serviceDay(start)).toBe('2027-02-01');
    expect(serviceDay(new Date(start.getTime() - 1))).toBe('2027-01-31');
  });
});
