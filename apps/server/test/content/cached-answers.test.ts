import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { applyDemoSeeds } from '../../src/db/seed.js';
import { OneLinePerRequest } from '../../src/lib/logging.js';
import { landingContentSeed } from '../../src/modules/catalog/demo-seeds.js';
import { withPlans } from '../helpers/factories.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * The public answers every visitor shares (landing data, card list, a merchant's plans) are kept
 * in memory (lib/answer-cache.ts) and go out through their Fastify routes like any other answer:
 * the same bytes and ETag in every coding, 304 to a client that holds them, the API's security
 * headers and a request id, counted and logged. Over a real socket, as a browser sends them.
 */
const METRICS_TOKEN = 'cached-answers-metrics-token';
let t: TestApp;
let port: number;
const agent = new Agent({ keepAlive: true, maxSockets: 50 });
const logged = vi.spyOn(OneLinePerRequest.prototype, 'requestCompleted');

beforeAll(async () => {
  t = await createTestApp({ METRICS_TOKEN });
  await applyDemoSeeds(t.db, [landingContentSeed]);
  await withPlans(t);
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const address = t.app.server.address();
  port = typeof address === 'object' && address ? address.port : 0;
});
afterAll(async () => {
  agent.destroy();
  logged.mockRestore();
  await t.close();
});

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** One request as a client sends it, the answer's bytes as they came (no decoding). */
function send(path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest({ host: '127.0.0.1', port, path, method, headers, agent }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () =>
        resolve({ status: answer.statusCode ?? 0, headers: answer.headers, body: Buffer.concat(chunks) }),
      );
      answer.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

/** The answer's body as the client reads it, after its Content-Encoding. */
function decoded({ headers, body }: Answer): Buffer {
  const coding = headers['content-encoding'];
  return coding === 'br' ? brotliDecompressSync(body) : coding === 'gzip' ? gunzipSync(body) : body;
}

function expectApiHeaders(answer: Answer) {
  expect(answer.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
  expect(answer.headers['x-frame-options']).toBe('DENY');
  expect(answer.headers['x-content-type-options']).toBe('nosniff');
  expect(answer.headers['x-request-id']).toMatch(/^[\w-]{8,64}$/);
}

const CACHED_PATHS = [
  '/api/landing-page',
  '/api/landing-page?lang=mn',
  '/api/landing-page/contents/list/ALL',
  '/api/landing-page/contents/list/ALL?lang=mn',
  '/api/packages/allplans?merchantId=14',
];

/** `tunes_http_requests_total` of `GET route` answered `status`, as Prometheus reads it. */
async function requestCount(route: string, status: number): Promise<number> {
  const scrape = await send('/metrics', { authorization: `Bearer ${METRICS_TOKEN}` });
  const line = scrape.body
    .toString()
    .split('\n')
    .find(
      (text) =>
        text.startsWith('tunes_http_requests_total{') &&
        text.includes('method="GET"') &&
        text.includes(`route="${route}"`) &&
        text.includes(`status="${status}"`),
    );
  return line ? Number(line.split(' ').pop()) : 0;
}

describe('public answers kept in memory', () => {
  it.each(CACHED_PATHS)(
    '%s: the same data and ETag in every coding, 304 to that ETag, with the API security headers',
    async (path) => {
      const plain = await send(path);
      expect(plain.status).toBe(200);
      expectApiHeaders(plain);
      expect(plain.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(plain.headers['cache-control']).toBe('no-cache');
      expect(plain.headers['content-length']).toBe(String(plain.body.length));
      const etag = String(plain.headers.etag);
      expect(etag).toMatch(/^"[\w-]{16}"$/);
      expect(JSON.parse(plain.body.toString())).toEqual(expect.any(Object));

      for (const acceptEncoding of ['br, gzip', 'gzip, br;q=0', 'identity']) {
        const coded = await send(path, { 'accept-encoding': acceptEncoding });
        expect(coded.status).toBe(200);
        expectApiHeaders(coded);
        expect(coded.headers.etag).toBe(etag);
        expect(coded.headers['content-length']).toBe(String(coded.body.length));
        expect(decoded(coded)).toEqual(plain.body);
        if (acceptEncoding === 'identity') expect(coded.headers['content-encoding']).toBeUndefined();
      }

      const held = await send(path, { 'if-none-match': etag, 'accept-encoding': 'br' });
      expect(held.status).toBe(304);
      expectApiHeaders(held);
      expect(held.headers.etag).toBe(etag);
      expect(held.headers['cache-control']).toBe('no-cache');
      expect(held.body.length).toBe(0);
      expect((await send(path, { 'if-none-match': '"stale"' })).status).toBe(200);
    },
  );

  it('the long answers go compressed for the coding the client takes', async () => {
    const cards = '/api/landing-page/contents/list/ALL';
    const br = await send(cards, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toBe('accept-encoding');
    const gzip = await send(cards, { 'accept-encoding': 'gzip, br;q=0' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(decoded(gzip)).toEqual(decoded(br));
  });

  it("each answer carries its request id: the caller's when it is a plain token, else a new one", async () => {
    const given = await send('/api/landing-page', { 'x-request-id': 'landing-trace-0001' });
    expect(given.headers['x-request-id']).toBe('landing-trace-0001');
    const refused = await send('/api/landing-page', { 'x-request-id': 'not a token\u00e9' });
    expect(refused.headers['x-request-id']).not.toBe('not a token\u00e9');
    const [a, b] = await Promise.all([
      send('/api/packages/allplans?merchantId=14'),
      send('/api/landing-page'),
    ]);
    expect(a?.headers['x-request-id']).toMatch(/^[\w-]{8,64}$/);
    expect(a?.headers['x-request-id']).not.toBe(b?.headers['x-request-id']);
  });

  it('each request passes the hooks of its route: counted under its route and status, logged with its id', async () => {
    const route = '/api/landing-page';
    const etag = String((await send(route)).headers.etag);
    const before = { ok: await requestCount(route, 200), held: await requestCount(route, 304) };
    logged.mockClear();

    await send(route, { 'x-request-id': 'counted-request-1' });
    await send(`${route}?lang=mn`, { 'x-request-id': 'counted-request-2' });
    await send(route, { 'x-request-id': 'counted-request-3', 'if-none-match': etag });

    expect(await requestCount(route, 200)).toBe(before.ok + 2);
    expect(await requestCount(route, 304)).toBe(before.held + 1);
    const lines = logged.mock.calls
      .map(([error, request, reply]) => ({
        error,
        id: request.id,
        url: request.url,
        status: reply.statusCode,
      }))
      .filter((line) => line.id.startsWith('counted-request-'));
    expect(lines).toEqual([
      { error: undefined, id: 'counted-request-1', url: route, status: 200 },
      { error: undefined, id: 'counted-request-2', url: `${route}?lang=mn`, status: 200 },
      { error: undefined, id: 'counted-request-3', url: route, status: 304 },
    ]);
  });

  it('500 requests at once: the same bytes, each its own request id, each counted', async () => {
    const path = '/api/landing-page?lang=mn';
    await send(path);
    const before = await requestCount('/api/landing-page', 200);
    const answers = await Promise.all(
      Array.from({ length: 500 }, (_, index) => send(path, { 'x-request-id': `burst-request-${index}` })),
    );
    expect(new Set(answers.map((answer) => answer.status))).toEqual(new Set([200]));
    expect(new Set(answers.map((answer) => answer.body.toString('base64'))).size).toBe(1);
    expect(answers.map((answer) => answer.headers['x-request-id'])).toEqual(
      Array.from({ length: 500 }, (_, index) => `burst-request-${index}`),
    );
    expect(await requestCount('/api/landing-page', 200)).toBe(before + 500);
  });

  it('a query the schema refuses gets its 400; HEAD gets the headers without a body', async () => {
    const refused = await send('/api/landing-page?lang=fr');
    expect(refused.status).toBe(400);
    expectApiHeaders(refused);
    expect(JSON.parse(refused.body.toString())).toMatchObject({ error: 'bad_request', field: 'lang' });
    expect((await send('/api/packages/allplans?merchantId=0')).status).toBe(400);
    expect((await send('/api/packages/allplans?merchantId=014')).status).toBe(200);
    const head = await send('/api/landing-page', {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers.etag).toBe((await send('/api/landing-page')).headers.etag);
    expect(head.body.length).toBe(0);
  });
});
