import { QueryClientProvider } from '@tanstack/react-query';
import { Suspense } from 'react';
import { queryClient } from '@/lib/query-client';
import { DeferredToaster } from './layout/deferred-toaster';
import { PageLoading } from './layout/page-loading';
import { Shell } from './layout/shell';
import { AppRoutes } from './router';

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <Shell>
        <Suspense fallback={<PageLoading />}>
          <AppRoutes />
        </Suspense>
      </Shell>
      <DeferredToaster />
    </QueryClientProvider>
  );
}
