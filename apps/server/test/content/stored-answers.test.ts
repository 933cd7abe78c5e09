import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyDemoSeeds } from '../../src/db/seed.js';
import { landingContentSeed } from '../../src/modules/content/seed.js';
import { withPlans } from '../helpers/factories.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Public answers served from memory before routing (lib/stored-answers.ts, decision 0026) are
 * the routed answers byte for byte, counted and identified like them, over a real socket.
 */
const METRICS_TOKEN = 'stored-answers-metrics-token';
let t: TestApp;
let port: number;
const agent = new Agent({ keepAlive: true, maxSockets: 50 });

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

/** Headers that differ between two answers of the same thing: the clock's and the request's own. */
function comparable({ status, headers, body }: Answer) {
  const { date: _date, 'x-request-id': _id, connection: _c, 'keep-alive': _k, ...rest } = headers;
  return { status, headers: rest, body: body.toString('base64') };
}

const served = () => t.app.storedAnswers.served;

/** The same call with a trailing slash on its path: the router's, never answered from memory. */
const routedTwin = (path: string) => path.replace(/(\?|$)/, '/$1');

const STORED_PATHS = [
  '/api/landing-page',
  '/api/landing-page?lang=en',
  '/api/landing-page?lang=mn',
  '/api/landing-page/contents/list/ALL',
  '/api/landing-page/contents/list/ALL?lang=mn',
  '/api/packages/allplans?merchantId=14',
];

describe('answers served before routing', () => {
  it.each(STORED_PATHS)(
    '%s: the routed answer, byte for byte, in every coding and as a 304',
    async (path) => {
      const first = await send(path);
      expect(first.status).toBe(200);
      const etag = String(first.headers.etag);
      const variants: Record<string, string>[] = [
        {},
        { 'accept-encoding': 'br, gzip' },
        { 'accept-encoding': 'gzip, br;q=0' },
        { 'accept-encoding': 'identity' },
        { 'if-none-match': etag },
      ];
      for (const headers of variants) {
        const before = served();
        const stored = await send(path, headers);
        expect(served()).toBe(before + 1);
        const routed = await send(routedTwin(path), headers);
        expect(served()).toBe(before + 1);
        expect(comparable(stored)).toEqual(comparable(routed));
        expect(stored.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
        expect(stored.headers['x-request-id']).toMatch(/^[\w-]{8,64}$/);
        expect(stored.headers['x-request-id']).not.toBe(routed.headers['x-request-id']);
      }
    },
  );

  it('leaves to the route every other query, method or path, and an answer due for its revision check', async () => {
    await send('/api/landing-page');
    const before = served();
    const refused = await send('/api/landing-page?lang=fr');
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.body.toString())).toMatchObject({ error: expect.any(String) });
    for (const path of [
      '/api/landing-page?lang=mn&lang=en',
      '/api/landing-page?lang=MN',
      '/API/landing-page',
    ]) {
      await send(path);
    }
    expect((await send('/api/packages/allplans?merchantId=014')).status).toBe(200);
    expect((await send('/api/packages/allplans?merchantId=0')).status).toBe(400);
    const head = await send('/api/landing-page', {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(served()).toBe(before);

    // A second later the content's revision must be read again: the route does it, then memory serves.
    t.clock.advance(1001);
    expect((await send('/api/landing-page')).status).toBe(200);
    expect(served()).toBe(before);
    expect((await send('/api/landing-page')).status).toBe(200);
    expect(served()).toBe(before + 1);
  });

  it('500 requests at once: each answered from memory with the same bytes and its own request id, each counted', async () => {
    await send('/api/landing-page?lang=mn');
    const metricsBefore = await landingCount();
    const before = served();
    const answers = await Promise.all(
      Array.from({ length: 500 }, (_, index) =>
        send('/api/landing-page?lang=mn', { 'x-request-id': `burst-request-${index}` }),
      ),
    );
    expect(served()).toBe(before + 500);
    expect(new Set(answers.map((answer) => answer.status))).toEqual(new Set([200]));
    expect(new Set(answers.map((answer) => answer.body.toString('base64'))).size).toBe(1);
    expect(answers.map((answer) => answer.headers['x-request-id'])).toEqual(
      Array.from({ length: 500 }, (_, index) => `burst-request-${index}`),
    );
    expect(await landingCount()).toBe(metricsBefore + 500);
  });
});

/** The request counter of `GET /api/landing-page` answered 200, as Prometheus reads it. */
async function landingCount(): Promise<number> {
  const scrape = await send('/metrics', { authorization: `Bearer ${METRICS_TOKEN}` });
  const line = scrape.body
    .toString()
    .split('\n')
    .find(
      (text) =>
        text.startsWith('tunes_http_requests_total{') &&
        text.includes('route="/api/landing-page"') &&
        text.includes('status="200"'),
    );
  return line ? Number(line.split(' ').pop()) : 0;
}
