import { TOAST_DURATION_MS } from '@tunes/shared/constants';
import { lazy, Suspense, useSyncExternalStore } from 'react';
import { subscribeToToaster, toasterRequested } from '@/lib/toast';

const Toaster = lazy(() => import('sonner').then((module) => ({ default: module.Toaster })));

/** Sonner's `Toaster`, mounted with the first toast (see lib/toast). */
export function DeferredToaster() {
  const requested = useSyncExternalStore(subscribeToToaster, toasterRequested, () => false);
  if (!requested) return null;
  return (
    <Suspense fallback={null}>
      <Toaster position="top-right" duration={TOAST_DURATION_MS} closeButton richColors />
    </Suspense>
  );
}
