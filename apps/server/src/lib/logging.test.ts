import { describe, expect, it } from 'vitest';
import { redactUrl, requestIdOf } from './logging.js';

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
    expect(redactUrl('/api/subscription/42/invitation-codes/Zk3_secret-code')).toBe(
      '/api/subscription/42/invitation-codes/[redacted]',
    );
    expect(redactUrl('/api/subscription/42/invitation-codes/')).toBe(
      '/api/subscription/42/invitation-codes/',
    );
  });
});

describe('requestIdOf', () => {
  it("keeps a caller's plain token of 8–64 characters and replaces anything else with a UUID", () => {
    expect(requestIdOf({ 'x-request-id': 'proxy-trace_0001' })).toBe('proxy-trace_0001');
    for (const given of [undefined, 'short', 'x'.repeat(65), 'has space 123', 'line\nbreak-1234']) {
      const id = requestIdOf(given === undefined ? {} : { 'x-request-id': given });
      expect(id).not.toBe(given);
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    }
  });
});

describe('OneLinePerRequest', () => {
  it('writes one line per request, with its id, status and redacted URL, and errors at error level', async () => {
    const { default: Fastify } = await import('fastify');
    const { OneLinePerRequest } = await import('./logging.js');
    const lines: Record<string, unknown>[] = [];
    const controller = new OneLinePerRequest();
    const app = Fastify({
      logger: {
        level: 'info',
        stream: { write: (line: string) => lines.push(JSON.parse(line)) },
        redact: { paths: ['*.password'], censor: '[redacted]' },
      },
      logController: controller,
    });
    controller.useLogger(app.log);
    app.get('/ok', async () => ({ ok: true }));
    app.get('/boom', async () => {
      throw new Error('broken');
    });
    app.post('/secret', async (request) => {
      request.log.warn({ body: request.body }, 'looked at');
      return { ok: true };
    });
    await app.inject({ method: 'GET', url: '/ok?otp=1234' });
    await app.inject({ method: 'GET', url: '/boom' });
    await app.inject({ method: 'GET', url: '/missing' });
    await app.inject({ method: 'POST', url: '/secret', payload: { password: 'hunter2' } });
    await app.close();
    const requests = lines.filter((line) => 'status' in line);
    expect(requests).toHaveLength(4);
    expect(requests[0]).toMatchObject({ level: 30, method: 'GET', url: '/ok?otp=[redacted]', status: 200 });
    expect(requests[0]?.reqId).toEqual(expect.any(String));
    expect(requests[1]).toMatchObject({ level: 50, url: '/boom', status: 500 });
    expect(requests[1]?.reqId).toEqual(expect.any(String));
    expect(requests[2]).toMatchObject({ level: 30, url: '/missing', status: 404 });
    expect(requests[2]?.reqId).toEqual(expect.any(String));
    // The request's own logger still redacts what a handler logs.
    expect(lines.find((line) => line.msg === 'looked at')).toMatchObject({
      body: { password: '[redacted]' },
    });
    expect(JSON.stringify(lines)).not.toContain('hunter2');
    expect(lines.some((line) => line.msg === 'incoming request')).toBe(false);
  });
});
