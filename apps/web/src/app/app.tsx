import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { Suspense, useEffect } from 'react';
import { queryClient } from '@/lib/query-client';
import { DeferredToaster } from './layout/deferred-toaster';
import { PageLoading } from './layout/page-loading';
import { Shell } from './layout/shell';
import { AppRoutes } from './router';

/** Marks the page interactive once React has rendered or hydrated it (e2e and people alike). */
function InteractiveMark() {
  useEffect(() => {
    document.documentElement.dataset.interactive = '';
  }, []);
  return null;
}

/** The site; the server-side renderer passes a query client of its own per page. */
export function App({ client = queryClient }: { client?: QueryClient }) {
  return (
    <QueryClientProvider client={client}>
      <Shell>
        <Suspense fallback={<PageLoading />}>
          <AppRoutes />
        </Suspense>
      </Shell>
      <DeferredToaster />
      <InteractiveMark />
    </QueryClientProvider>
  );
}
