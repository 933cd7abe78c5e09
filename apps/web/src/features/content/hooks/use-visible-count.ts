import { BREAKPOINT_DESKTOP_PX, BREAKPOINT_PHONE_PX } from '@tunes/shared/constants';
import { useSyncExternalStore } from 'react';

/** product.md §2: 4 cards, 2 below 1024 px, 1 below 600 px (at 1024 px four, not two 500 px ones). */
const STEPS: [query: string, count: number][] = [
  [`(max-width: ${BREAKPOINT_PHONE_PX - 0.02}px)`, 1],
  [`(max-width: ${BREAKPOINT_DESKTOP_PX - 0.02}px)`, 2],
];
const WIDE_COUNT = 4;

function read(): number {
  for (const [query, count] of STEPS) if (window.matchMedia(query).matches) return count;
  return WIDE_COUNT;
}

function subscribe(onChange: () => void) {
  const lists = STEPS.map(([query]) => window.matchMedia(query));
  for (const list of lists) list.addEventListener('change', onChange);
  return () => {
    for (const list of lists) list.removeEventListener('change', onChange);
  };
}

/** How many carousel cards fit the screen now; follows resizes and rotations. */
export function useVisibleCount(): number {
  return useSyncExternalStore(subscribe, read, () => WIDE_COUNT);
}
