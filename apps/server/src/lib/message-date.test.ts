import { describe, expect, it } from 'vitest';
import { messageDate } from './message-date.js';

describe('messageDate', () => {
  it('writes English month names in English and numeric parts in Mongolian, never an ISO date', () => {
    const date = new Date('2026-12-01T10:00:00Z');
    expect(messageDate(date, 'en')).toBe('December 1, 2026');
    expect(messageDate(date, 'mn')).toBe('2026 оны 12-р сарын 1');
  });

  it("counts the day in Ulaanbaatar (UTC+8), whatever the server's zone", () => {
    expect(messageDate(new Date('2027-01-31T15:59:00Z'), 'en')).toBe('January 31, 2027');
    expect(messageDate(new Date('2027-01-31T16:00:00Z'), 'en')).toBe('February 1, 2027');
    expect(messageDate(new Date('2027-01-31T16:00:00Z'), 'mn')).toBe('2027 оны 2-р сарын 1');
  });
});
