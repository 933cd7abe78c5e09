import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/** An OTLP/HTTP collector on this machine that keeps what it is sent. */
let collector: Server;
const batches: { url: string; body: string }[] = [];
let t: TestApp;

beforeAll(async () => {
  collector = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      batches.push({ url: request.url ?? '', body });
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
  const { port } = collector.address() as AddressInfo;
  t = await createTestApp({
    OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`,
    OTEL_SERVICE_NAME: 'tunes-test',
  });
});
afterAll(async () => {
  await t.close();
  await new Promise((resolve) => collector.close(resolve));
});

it('sends a span per request, named by its route and continuing the caller trace, to the OTLP endpoint', async () => {
  const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
  await t.app.inject({
    method: 'GET',
    url: '/api/packages/allplans?merchantId=14',
    headers: { StoreId: 'MNCO', traceparent: `00-${traceId}-00f067aa0ba902b7-01` },
  });
  await vi.waitFor(() => expect(batches.length).toBeGreaterThan(0), { timeout: 10_000, interval: 100 });
  const sent = batches.map((batch) => batch.body).join('\n');
  expect(batches[0]?.url).toBe('/v1/traces');
  expect(sent).toContain('GET /api/packages/allplans');
  expect(sent).toContain('tunes-test');
  expect(sent).toContain(traceId);
  expect(sent).not.toContain('merchantId=14');
});
