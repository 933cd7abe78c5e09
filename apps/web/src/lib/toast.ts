/**
 * Toasts without Sonner on the page load: the library (about 10 KB, and a style sheet it injects
 * when it starts) loads with the first toast, so no route carries it before its content or while
 * it becomes interactive (performance.md). Sonner hands toasts created before its `Toaster` mounted to
 * the `Toaster` when it does, so none is lost.
 */
const listeners = new Set<() => void>();
let requested = false;

function requestToaster() {
  if (requested) return;
  requested = true;
  for (const listener of listeners) listener();
}

/** Whether the `Toaster` should be mounted: from the first toast on. */
export function toasterRequested(): boolean {
  return requested;
}

export function subscribeToToaster(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function show(kind: 'message' | 'success' | 'error', message: string) {
  requestToaster();
  void import('sonner').then(({ toast: sonner }) => {
    if (kind === 'message') sonner(message);
    else sonner[kind](message);
  });
}

/** The site's toasts: `toast(text)`, `toast.success(text)`, `toast.error(text)`. */
export const toast = Object.assign((message: string) => show('message', message), {
  success: (message: string) => show('success', message),
  error: (message: string) => show('error', message),
});
