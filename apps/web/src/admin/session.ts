import { QueryClient, useQuery } from '@tanstack/react-query';
import { isApiError } from '@/lib/api-error';
import { adminApi, type Me, type Role } from './api';

export const consoleQueryClient = new QueryClient({
  defaultOptions: {
    queries: {
      retry: (count, error) => !(isApiError(error) && error.status < 500) && count < 1,
      refetchOnWindowFocus: false,
    },
  },
});

export const meQueryKey = ['admin', 'me'] as const;

/** The signed-in operator, or null when signed out. */
export function useMe() {
  return useQuery({
    queryKey: meQueryKey,
    queryFn: async (): Promise<Me | null> => {
      try {
        return await adminApi<Me>('/me', { public: true });
      } catch (error) {
        if (isApiError(error, { status: 401 })) return null;
        throw error;
      }
    },
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export type Section =
  | 'dashboard'
  | 'content'
  | 'support'
  | 'feedback'
  | 'plans'
  | 'offers'
  | 'vouchers'
  | 'operators'
  | 'audit';

/** The console's sections each role may use (the server checks every call again). */
const SECTIONS: Record<Role, readonly Section[]> = {
  admin: ['dashboard', 'content', 'support', 'feedback', 'plans', 'offers', 'vouchers', 'operators', 'audit'],
  support: ['support', 'feedback'],
  content: ['content'],
};

export function sectionsOf(role: Role): readonly Section[] {
  return SECTIONS[role];
}

export function mayUse(role: Role, section: Section): boolean {
  return SECTIONS[role].includes(section);
}

const SECTION_PATHS: Record<Section, string> = {
  dashboard: '/dashboard',
  content: '/content',
  support: '/support',
  feedback: '/feedback',
  plans: '/plans',
  offers: '/offers',
  vouchers: '/vouchers',
  operators: '/operators',
  audit: '/audit',
};

/** A section's path under `/admin`. */
export const sectionPath = (section: Section) => SECTION_PATHS[section];
