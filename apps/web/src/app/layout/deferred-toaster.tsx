import { TOAST_DURATION_MS } from '@tunes/shared/constants';
import { lazy, Suspense, useEffect, useState, useSyncExternalStore } from 'react';
import { subscribeToToaster, toasterRequested } from '@/lib/toast';

const Toaster = lazy(() => import('sonner').then((module) => ({ default: module.Toaster })));

/** Space kept between the sticky header and the first toast. */
const GAP_PX = 8;
/** Sonner's own side offsets (desktop, phone), kept when only the top one moves. */
const SIDE_PX = 24;
const MOBILE_SIDE_PX = 16;

/**
 * The height of the sticky header as it is drawn (it grows with its controls at 360 px), so toasts
 * start below it and never cover the Profile button or the language switch (issue 37).
 */
function useHeaderHeight(): number {
  const [height, setHeight] = useState(0);
  useEffect(() => {
    const header = document.querySelector('header.header');
    if (!header) return;
    const measure = () => setHeight(Math.ceil(header.getBoundingClientRect().height));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(header);
    return () => observer.disconnect();
  }, []);
  return height;
}

/** Sonner's `Toaster`, mounted with the first toast (see lib/toast), below the header. */
export function DeferredToaster() {
  const requested = useSyncExternalStore(subscribeToToaster, toasterRequested, () => false);
  const top = useHeaderHeight() + GAP_PX;
  if (!requested) return null;
  return (
    <Suspense fallback={null}>
      <Toaster
        position="top-right"
        offset={{ top, right: SIDE_PX, left: SIDE_PX }}
        mobileOffset={{ top, right: MOBILE_SIDE_PX, left: MOBILE_SIDE_PX }}
        duration={TOAST_DURATION_MS}
        closeButton
        richColors
      />
    </Suspense>
  );
}
