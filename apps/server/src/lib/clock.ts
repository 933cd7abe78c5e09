/** Business time comes from here so tests can move it (invitation expiry, period ends). */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock tests set and advance by hand. */
export class ManualClock implements Clock {
  #time: number;
  constructor(start: Date | number = Date.now()) {
    this.#time = typeof start === 'number' ? start : start.getTime();
  }
  now(): Date {
    return new Date(this.#time);
  }
  set(time: Date | number): void {
    this.#time = typeof time === 'number' ? time : time.getTime();
  }
  advance(milliseconds: number): void {
    this.#time += milliseconds;
  }
}

/**
 * The system clock moved forward by a development tool (`POST /dev/clock`, product.md §12), so an
 * e2e test can reach a period's end or a window's close without waiting. Never in production.
 */
export class AdjustableClock implements Clock {
  #offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.#offsetMs);
  }
  advance(milliseconds: number): void {
    this.#offsetMs += milliseconds;
  }
}
