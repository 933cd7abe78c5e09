import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * What fails before a route runs still answers in the API's one error shape, with the security
 * headers and a request id (api.md): sent over a real socket, as a client would.
 */
let t: TestApp;
let port: number;
beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const address = t.app.server.address();
  port = typeof address === 'object' && address ? address.port : 0;
});
afterAll(async () => {
  await t.close();
});

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Sends `request` bytes as they are and reads the answer until the server closes or ends it. */
function raw(request: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let data = '';
    const finish = () => {
      const [head = '', ...rest] = data.split('\r\n\r\n');
      const [statusLine = '', ...headerLines] = head.split('\r\n');
      const headers = Object.fromEntries(
        headerLines.map((line) => {
          const at = line.indexOf(':');
          return [line.slice(0, at).toLowerCase(), line.slice(at + 1).trim()];
        }),
      );
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n') });
    };
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      data += chunk;
      const [head = '', body = ''] = data.split('\r\n\r\n');
      const length = /content-length: (\d+)/i.exec(head)?.[1];
      if (length !== undefined && Buffer.byteLength(body) >= Number(length)) socket.end();
    });
    socket.on('close', finish);
    socket.on('error', (error) => (data ? finish() : reject(error)));
    socket.write(request);
  });
}

function expectOurShape(answer: RawAnswer, status: number) {
  expect(answer.status).toBe(status);
  expect(answer.headers['content-security-policy']).toContain("frame-ancestors 'none'");
  expect(answer.headers['x-content-type-options']).toBe('nosniff');
  expect(answer.headers['x-request-id']).toMatch(/^[\w-]{8,}$/);
  expect(JSON.parse(answer.body)).toEqual({ error: expect.any(String), message: expect.any(String) });
}

describe('answers refused before routing', () => {
  it('a malformed URL', async () => {
    const answer = await raw(
      'GET /api/users/%E0%A4%A/profile HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    );
    expectOurShape(answer, 400);
  });

  it('an over-long path parameter', async () => {
    const answer = await raw(
      `GET /api/users/${'a'.repeat(5000)}/profile HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
    );
    expectOurShape(answer, 414);
  });

  it('headers larger than the server takes', async () => {
    const answer = await raw(`GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(40_000)}\r\n\r\n`);
    expectOurShape(answer, 431);
  });

  it('a bad Content-Length', async () => {
    const answer = await raw('POST /api/feedback HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n');
    expectOurShape(answer, 400);
  });
});
