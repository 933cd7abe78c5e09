import { useCallback, useState } from 'react';
import { SHARED_CODE_KEY } from '@/lib/session';

function read(): string | null {
  try {
    return sessionStorage.getItem(SHARED_CODE_KEY);
  } catch {
    return null;
  }
}

/** Stores an invite code from a link so it survives signing in (product.md §3: `sharedCode`). */
export function storeSharedCode(code: string): void {
  try {
    sessionStorage.setItem(SHARED_CODE_KEY, code);
  } catch {
    // Storage may be unavailable; the code then lives only in the address bar.
  }
}

/** The pending invite code kept in sessionStorage, and a way to forget it once used. */
export function useSharedCode() {
  const [code, setCode] = useState(read);
  const clear = useCallback(() => {
    try {
      sessionStorage.removeItem(SHARED_CODE_KEY);
    } catch {
      // Nothing stored.
    }
    setCode(null);
  }, []);
  return { code, clear };
}
