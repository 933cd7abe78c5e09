import { describe, expect, it } from 'vitest';
import { CHANGE_ERRORS, CODE_LOCKED_ERROR, GRANT_ERRORS } from './account-codes.js';
import { API_ERROR_CODES, type ApiErrorCode, ERROR_CODES } from './error-codes.js';
import { INVITATION_ERRORS, MEMBERSHIP_ERRORS } from './family-codes.js';
import { ALREADY_SUBSCRIBED_CODE, PAYMENT_GATEWAY_ERROR_CODE } from './premium-rules.js';
import { VOUCHER_ERRORS } from './voucher-codes.js';

const codes: string[] = Object.values(API_ERROR_CODES);

describe('the API error-code catalogue', () => {
  it('names each wire value once', () => {
    const seen = new Map<string, string[]>();
    for (const [name, code] of Object.entries(API_ERROR_CODES)) {
      seen.set(code, [...(seen.get(code) ?? []), name]);
    }
    const twice = [...seen].filter(([, names]) => names.length > 1);
    expect(twice, 'one name per code: a feature reuses the name, not the value').toEqual([]);
  });

  it('holds snake_case codes, and the token grant’s three-digit ones (product.md §8)', () => {
    expect(codes.filter((code) => !/^([a-z]+(_[a-z]+)*|\d{3})$/.test(code))).toEqual([]);
  });

  it('keeps the wire values the site and api.md already know', () => {
    // A value is the API's contract: a rename here breaks every client that compares it.
    expect(API_ERROR_CODES).toMatchObject({
      badRequest: 'bad_request',
      notFound: 'not_found',
      unavailable: 'service_unavailable',
      grantNotRegistered: '604',
      codeLocked: 'code_locked',
      paymentGatewayError: 'payment_gateway_error',
      voucherInvalid: 'voucher_invalid',
      invalidCredentials: 'invalid_credentials',
      gatewayError: 'gateway_error',
    });
  });

  it('includes the shared codes every call may answer', () => {
    for (const code of Object.values(ERROR_CODES)) expect(codes).toContain(code);
  });

  it('is where every feature’s group of codes comes from', () => {
    const grouped: ApiErrorCode[] = [
      ...Object.values(GRANT_ERRORS),
      ...Object.values(CHANGE_ERRORS),
      ...Object.values(INVITATION_ERRORS),
      ...Object.values(MEMBERSHIP_ERRORS),
      ...Object.values(VOUCHER_ERRORS),
      CODE_LOCKED_ERROR,
      ALREADY_SUBSCRIBED_CODE,
      PAYMENT_GATEWAY_ERROR_CODE,
    ];
    expect(grouped.filter((code) => !codes.includes(code))).toEqual([]);
  });
});
