import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { PLAN_CODES, shopper, withPlans } from '../helpers/factories.js';
import { startCheckout } from '../helpers/premium.js';
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

/** A span as OTLP/JSON carries it: ids in hex, kind 2 = server, 3 = client. */
interface SentSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: { key: string; value: { stringValue?: string; intValue?: number | string } }[];
}

function sentSpans(): SentSpan[] {
  return batches.flatMap((batch) =>
    (
      JSON.parse(batch.body) as { resourceSpans: { scopeSpans: { spans: SentSpan[] }[] }[] }
    ).resourceSpans.flatMap((resource) => resource.scopeSpans.flatMap((scope) => scope.spans)),
  );
}

const attribute = (span: SentSpan, key: string) => {
  const value = span.attributes.find((entry) => entry.key === key)?.value;
  return value?.stringValue ?? value?.intValue;
};

it("shows where a checkout spent its time: its database statements and its gateway call are children of the request's span", async () => {
  await withPlans(t);
  const { headers } = await shopper(t);
  await startCheckout(t, headers, PLAN_CODES.premium);

  let request: SentSpan | undefined;
  await vi.waitFor(
    () => {
      request = sentSpans().find((span) => span.name === 'POST /api/payments/checkout');
      expect(request).toBeDefined();
    },
    { timeout: 10_000, interval: 100 },
  );
  if (!request) throw new Error('no checkout span');
  const children = sentSpans().filter(
    (span) => span.traceId === request?.traceId && span.parentSpanId === request?.spanId,
  );

  const statements = children.filter((span) => attribute(span, 'db.system.name') === 'postgresql');
  expect(statements.length).toBeGreaterThan(0);
  expect(statements.map((span) => span.name)).toEqual(
    expect.arrayContaining(['select packages', 'insert payment_invoices']),
  );
  for (const statement of statements) {
    expect(statement.kind).toBe(3);
    // Values travel as parameters: the text names none of the shopper's data.
    expect(attribute(statement, 'db.query.text')).not.toContain('Bold');
  }

  // The card gateway's token call (the built-in sandbox, on this server's own origin).
  const gateway = children.find((span) => attribute(span, 'url.full')?.toString().endsWith('/rest/token'));
  expect(gateway).toMatchObject({ kind: 3, name: 'POST localhost:3000' });
  expect(gateway && attribute(gateway, 'http.response.status_code')).toBe(200);
  // The gateway continued the trace it was handed: its own request is the call's child.
  expect(sentSpans()).toContainEqual(
    expect.objectContaining({ traceId: request.traceId, parentSpanId: gateway?.spanId, kind: 2 }),
  );
});
