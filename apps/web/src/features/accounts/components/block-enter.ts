import type { KeyboardEvent } from 'react';

/** product.md §2: Enter is blocked in the auth modals; only the buttons submit. */
export function blockEnter(event: KeyboardEvent<HTMLElement>) {
  if (event.key === 'Enter' && event.target instanceof HTMLInputElement) event.preventDefault();
}
