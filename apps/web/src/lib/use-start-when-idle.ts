import { useCallback, useEffect, useState } from 'react';

/**
 * Starts waiting for the browser to be idle, one at a time: each start gets an idle moment of
 * its own, and the next is asked for only after it, so React's work for one start (a render and
 * its effects) runs before the next begins.
 */
const waiting: (() => void)[] = [];
let asked = false;

function askForIdle() {
  if (asked || waiting.length === 0) return;
  asked = true;
  const next = () => {
    asked = false;
    waiting.shift()?.();
    askForIdle();
  };
  if ('requestIdleCallback' in window) requestIdleCallback(next, { timeout: 2000 });
  else setTimeout(next, 50);
}

/**
 * False until the browser has an idle moment for this caller after mount (or `start` is called,
 * e.g. on the first hover or focus), then true. Heavy set-up, such as four carousels measuring
 * their slides, then runs as several short tasks instead of one long one (TBT, performance.md).
 */
export function useStartWhenIdle(): [started: boolean, start: () => void] {
  const [started, setStarted] = useState(false);
  const start = useCallback(() => setStarted(true), []);
  useEffect(() => {
    if (started) return;
    waiting.push(start);
    askForIdle();
    return () => {
      const index = waiting.indexOf(start);
      if (index >= 0) waiting.splice(index, 1);
    };
  }, [started, start]);
  return [started, start];
}
