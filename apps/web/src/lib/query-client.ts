import { QueryClient } from '@tanstack/react-query';
import type { ApiError } from './api-error';

declare module '@tanstack/react-query' {
  interface Register {
    /** Every query and mutation calls the API through `apiRequest`, which fails only with ApiError. */
    defaultError: ApiError;
  }
}

/** A refused request (4xx) stays refused; a lost connection or a 5xx is worth another try. */
const isRefused = (error: ApiError) => error.status >= 400 && error.status < 500;

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      refetchOnWindowFocus: false,
      retry: (failureCount, error) => !isRefused(error) && failureCount < 2,
    },
  },
});
