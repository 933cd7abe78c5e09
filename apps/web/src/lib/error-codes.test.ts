import { API_ERROR_CODES } from '@tunes/shared/error-codes';
import { describe, expect, it } from 'vitest';
import consoleEn from '@/admin/locales/en';
import consoleMn from '@/admin/locales/mn';
import { ApiError, type ErrorMessages, isApiError } from './api-error';

const catalogue = new Set<string>(Object.values(API_ERROR_CODES));

describe('the site reads the API’s error codes from the shared catalogue', () => {
  it('keys a call’s texts by catalogue codes only (checked by tsc)', () => {
    const messages: ErrorMessages = {
      [API_ERROR_CODES.invoiceClosed]: 'errors.conflict',
      409: 'errors.conflict',
      other: 'errors.generic',
      // @ts-expect-error a code the server never answers
      invoice_closd: 'errors.conflict',
    };
    expect(Object.keys(messages)).toContain('invoice_closed');
    const failure = new ApiError(409, { error: API_ERROR_CODES.invoiceClosed, message: 'closed' }, 'closed');
    expect(isApiError(failure, { code: API_ERROR_CODES.invoiceClosed })).toBe(true);
    // @ts-expect-error a code the server never answers
    expect(isApiError(failure, { code: 'invoice_closd' })).toBe(false);
  });

  it('has an English and a Mongolian console text for each code the console names', () => {
    const { generic: _generic, network_error: _network, ...byCode } = consoleEn.errors;
    const codes = Object.keys(byCode);
    expect(codes.length).toBeGreaterThan(10);
    expect(codes.filter((code) => !catalogue.has(code))).toEqual([]);
    const mn: Record<string, string | undefined> = consoleMn.errors;
    const en: Record<string, string | undefined> = consoleEn.errors;
    expect(codes.filter((code) => !en[code]?.trim() || !mn[code]?.trim())).toEqual([]);
  });
});
