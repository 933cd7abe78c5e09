import { useMutation } from '@tanstack/react-query';
import type { Company } from '@tunes/shared/billing';
import { API_ERROR_CODES } from '@tunes/shared/error-codes';
import { apiRequest } from '@/lib/api-client';

/** `GET /api/ebarimt/companies/{registry}`: the company a registry number names, before asking. */
export function useLookUpCompany() {
  return useMutation({
    mutationFn: (registry: string) =>
      apiRequest<Company>(`/api/ebarimt/companies/${encodeURIComponent(registry)}`, {
        auth: true,
        errors: {
          messages: {
            [API_ERROR_CODES.unknownCompany]: 'ebarimt:company-unknown',
            other: 'ebarimt:company-failed',
          },
        },
      }),
  });
}
