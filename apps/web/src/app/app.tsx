import { QueryClientProvider } from '@tanstack/react-query';
import { TOAST_DURATION_MS } from '@tunes/shared/constants';
import { lazy, Suspense } from 'react';
import { queryClient } from '@/lib/query-client';
import { PageLoading } from './layout/page-loading';
import { Shell } from './layout/shell';
import { AppRoutes } from './router';

/** Toasts load in their own chunk, in parallel with the page, to keep first paint light. */
const Toaster = lazy(() => import('sonner').then((module) => ({ default: module.Toaster })));

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <Shell>
        <Suspense fallback={<PageLoading />}>
          <AppRoutes />
        </Suspense>
      </Shell>
      <Suspense fallback={null}>
        <Toaster position="top-right" duration={TOAST_DURATION_MS} closeButton richColors />
      </Suspense>
    </QueryClientProvider>
  );
}
