import { describe, expect, it } from 'vitest';
import { redactUrl } from './logging.js';

describe('redactUrl', () => {
  it('hides codes, tokens and passwords in query strings', () => {
    expect(redactUrl('/api/users/validateotp?msisdn=97688112233&otp=1234')).toBe(
      '/api/users/validateotp?msisdn=97688112233&otp=[redacted]',
    );
    expect(redactUrl('/reset-password?token=abc&x=1')).toBe('/reset-password?token=[redacted]&x=1');
  });

  it('hides an invitation code carried in the path', () => {
    expect(redactUrl('/api/subscription/invitations/Zk3_secret-code')).toBe(
      '/api/subscription/invitations/[redacted]',
    );
    expect(redactUrl('/api/subscription/invitations/abc?x=1')).toBe(
      '/api/subscription/invitations/[redacted]?x=1',
    );
  });
});
