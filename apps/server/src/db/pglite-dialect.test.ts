import { describe, expect, it } from 'vitest';
import { ConnectionMutex } from './pglite-dialect.js';

/** Takes the lock and notes who got it; the holder keeps it until the test calls `unlock()`. */
function take(mutex: ConnectionMutex, name: string, served: string[]) {
  return mutex.lock().then(() => {
    served.push(name);
  });
}

describe('ConnectionMutex', () => {
  it('serves waiters first come, first served, and a newcomer after them', async () => {
    const mutex = new ConnectionMutex();
    const served: string[] = [];
    await take(mutex, 'first', served);
    const waiting = ['a', 'b', 'c'].map((name) => take(mutex, name, served));
    mutex.unlock();
    // Arrives after the release, before the woken waiter has run: it must not slip in.
    const late = take(mutex, 'late', served);
    await waiting[0];
    expect(served).toEqual(['first', 'a']);
    for (const next of [waiting[1], waiting[2], late]) {
      mutex.unlock();
      await next;
    }
    expect(served).toEqual(['first', 'a', 'b', 'c', 'late']);
  });

  it('is free again once every holder has released it, after a queue of thousands', async () => {
    const mutex = new ConnectionMutex();
    const served: number[] = [];
    await mutex.lock();
    const waiting = Array.from({ length: 3000 }, (_, index) => mutex.lock().then(() => served.push(index)));
    for (let index = 0; index < 3000; index++) {
      mutex.unlock();
      await waiting[index];
    }
    expect(served).toEqual(Array.from({ length: 3000 }, (_, index) => index));
    mutex.unlock();
    let taken = false;
    await mutex.lock().then(() => {
      taken = true;
    });
    expect(taken).toBe(true);
  });
});
