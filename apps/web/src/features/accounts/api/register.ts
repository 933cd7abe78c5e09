import { apiRequest } from '@/lib/api-client';

/** `POST /api/users/registerbymsisdn` (product.md §3 "Mobile registration"). */
export function registerByMsisdn(phoneNumber: string, countryCode: number, token: string) {
  return apiRequest<{ UserId: string }>('/api/users/registerbymsisdn', {
    method: 'POST',
    json: { PhoneNumber: phoneNumber, CountryCode: countryCode, Token: token },
    errors: { messages: { other: 'accounts:messages.registration-failed' } },
  });
}

export interface EmailRegistration {
  email: string;
  password: string;
  country: 'MN' | 'AU';
  otp: string;
}

/**
 * `POST /api/users/register` (product.md §3 "E-mail registration": Username equals Email, Language
 * 'en'); a failure reads 'Registration failed…' and toasts 'error-creating-account' (product.md §8).
 */
export function registerByEmail({ email, password, country, otp }: EmailRegistration) {
  return apiRequest<{ UserId: string }>('/api/users/register', {
    method: 'POST',
    json: { Email: email, Username: email, Password: password, Country: country, Language: 'en', Otp: otp },
    errors: {
      messages: { other: 'accounts:messages.registration-failed' },
      toast: { other: 'accounts:messages.error-creating-account' },
    },
  });
}
