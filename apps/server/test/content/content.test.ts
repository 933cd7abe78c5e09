import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { FEEDBACK_SUCCESS_MESSAGE } from '@tunes/shared/content';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { command as contentImport } from '../../src/admin/commands/content-import.js';
import { command as feedbackList } from '../../src/admin/commands/feedback-list.js';
import { buildApp } from '../../src/app.js';
import { applyDemoSeeds } from '../../src/db/seed.js';
import { createDeps } from '../../src/deps.js';
import { landingContentSeed } from '../../src/modules/catalog/demo-seeds.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

const YT = 'https://www.youtube.com/watch?v=jM8dCGIm6yc';

function contentFile(overrides: { title?: string; cards?: unknown[]; musicVideo?: string } = {}) {
  return {
    landing: {
      bannerDescEn: { title: overrides.title ?? 'Hello', description: 'Listen now' },
      bannerDescMn: { title: 'Сайн уу', description: 'Одоо сонс' },
      musicVideo: overrides.musicVideo ?? YT,
      musicVideoImage: 'https://cdn.example.mn/video.jpg',
      reels: [
        { url: 'https://youtu.be/v4xZUr0BEfE', description: 'One' },
        { url: 'https://www.youtube.com/shorts/jM8dCGIm6yc', description: 'Two' },
        { url: 'https://www.facebook.com/tunes.mn/videos/1234567890/', description: 'Three' },
      ],
    },
    cards: overrides.cards ?? [
      { type: 'ARTIST', title: 'Steppe Echo', tunesUrl: 'https://tunes.mn/artist/1', image: '/img/a.svg' },
      {
        type: 'SONG',
        title: 'Blue Sky',
        tunesUrl: 'https://tunes.mn/song/1',
        image: '/img/s.svg',
        trending: true,
      },
    ],
  };
}

describe('landing content and feedback', () => {
  let t: TestApp;
  const dir = mkdtempSync(path.join(tmpdir(), 'content-test-'));
  let fileNumber = 0;

  async function runAdmin(cmd: typeof contentImport, args: string[]) {
    const lines: string[] = [];
    await cmd.run(args, { config: t.config, db: async () => t.db, print: (line) => lines.push(line) });
    return lines.join('\n');
  }

  async function importFile(content: unknown) {
    const file = path.join(dir, `content-${++fileNumber}.json`);
    writeFileSync(file, JSON.stringify(content));
    return runAdmin(contentImport, [file]);
  }

  const landing = (app: FastifyInstance = t.app) => app.inject({ method: 'GET', url: '/api/landing-page' });
  const cards = (app: FastifyInstance = t.app) =>
    app.inject({ method: 'GET', url: '/api/landing-page/contents/list/ALL' });
  const sendFeedback = (payload: Record<string, unknown>, ip = '203.0.113.7') =>
    t.app.inject({ method: 'POST', url: '/api/feedback', payload, remoteAddress: ip });

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers 404 for landing data and an empty card list before anything was imported', async () => {
    const response = await landing();
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ error: 'not_found' });
    expect((await cards()).json()).toEqual({ result: [] });
  });

  it('content:import replaces the landing data and cards the API serves', async () => {
    const output = await importFile(contentFile());
    expect(output).toMatch(/Imported landing data and 2 cards \(1 ARTIST, 1 SONG, 0 PLAYLIST\)/);
    t.clock.advance(1500);

    const response = await landing();
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.json()).toEqual({ result: contentFile().landing });
    expect((await cards()).json()).toEqual({
      result: [
        {
          id: expect.any(Number),
          type: 'ARTIST',
          title: 'Steppe Echo',
          tunesUrl: 'https://tunes.mn/artist/1',
          image: '/img/a.svg',
          trending: false,
        },
        {
          id: expect.any(Number),
          type: 'SONG',
          title: 'Blue Sky',
          tunesUrl: 'https://tunes.mn/song/1',
          image: '/img/s.svg',
          trending: true,
        },
      ],
    });
  });

  it('answers 304 to a client that already holds the current landing data', async () => {
    const first = await landing();
    const etag = first.headers.etag as string;
    expect(etag).toBeTruthy();
    const again = await t.app.inject({
      method: 'GET',
      url: '/api/landing-page',
      headers: { 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it('sends the card list compressed for the coding the client takes, the same data in each', async () => {
    await importFile(
      contentFile({
        cards: Array.from({ length: 30 }, (_, index) => ({
          type: 'SONG',
          title: `Song ${index}`,
          tunesUrl: `https://tunes.mn/song/${index}`,
          image: `/img/song-${index}.svg`,
        })),
      }),
    );
    // Each process re-reads the content revision at most once a second.
    t.clock.advance(1001);
    const plain = await cards();
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThanOrEqual(1024);
    const asked = async (acceptEncoding: string) =>
      t.app.inject({
        method: 'GET',
        url: '/api/landing-page/contents/list/ALL',
        headers: { 'accept-encoding': acceptEncoding },
      });
    const brotli = await asked('gzip, deflate, br');
    expect(brotli.headers).toMatchObject({ 'content-encoding': 'br', vary: 'accept-encoding' });
    expect(brotliDecompressSync(brotli.rawPayload).toString()).toBe(plain.body);
    const gzip = await asked('gzip, br;q=0');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(plain.body);
    expect((await asked('identity')).headers['content-encoding']).toBeUndefined();
    // Every coding carries the answer's ETag and the security headers.
    expect(gzip.headers.etag).toBe(plain.headers.etag);
    expect(gzip.headers['content-security-policy']).toBeTruthy();
    expect(gzip.headers['x-request-id']).toBeTruthy();
  });

  it('every API process serves an import within a second, without a restart', async () => {
    // A second process on the same database, with its own cache.
    const deps = createDeps({ config: t.config, db: t.db, dbKind: t.deps.dbKind, clock: t.clock });
    const other = await buildApp(deps, { logLevel: 'silent' });
    await other.ready();
    try {
      expect((await landing(other)).json().result.bannerDescEn.title).toBe('Hello');
      const oldEtag = (await landing()).headers.etag;

      await importFile(contentFile({ title: 'Fresh banner', cards: [] }));
      t.clock.advance(1001);

      for (const app of [t.app, other]) {
        const response = await landing(app);
        expect(response.json().result.bannerDescEn.title).toBe('Fresh banner');
        expect(response.headers.etag).not.toBe(oldEtag);
        expect((await cards(app)).json()).toEqual({ result: [] });
      }
    } finally {
      await other.close();
    }
  });

  it('content:import refuses links that are not http(s) and changes nothing', async () => {
    const bad = contentFile({
      title: 'Never shown',
      cards: [{ type: 'SONG', title: 'x', tunesUrl: 'javascript:alert(1)', image: '/img/x.svg' }],
    });
    await expect(importFile(bad)).rejects.toThrow(
      /cards\.0\.tunesUrl: must be an http\(s\) URL.*|nothing was changed/s,
    );
    await expect(importFile(contentFile({ musicVideo: 'https://vimeo.com/1' }))).rejects.toThrow(
      /landing\.musicVideo/,
    );
    t.clock.advance(1001);
    expect((await landing()).json().result.bannerDescEn.title).toBe('Fresh banner');
  });

  it('the demo seed holds banner texts, 8+ cards of each type, a music video and three reels', async () => {
    expect(await applyDemoSeeds(t.db, [landingContentSeed])).toEqual(['content:landing-demo']);
    expect(await applyDemoSeeds(t.db, [landingContentSeed])).toEqual([]);
    t.clock.advance(1001);
    const data = (await landing()).json().result;
    expect(data.bannerDescMn.title).toMatch(/[А-Яа-яӨөҮү]/);
    expect(data.reels).toHaveLength(3);
    const list = (await cards()).json().result as { type: string; image: string; tunesUrl: string }[];
    for (const type of ['ARTIST', 'SONG', 'PLAYLIST']) {
      expect(list.filter((card) => card.type === type).length).toBeGreaterThanOrEqual(8);
    }
    expect(list.every((card) => card.tunesUrl.startsWith('https://'))).toBe(true);

    const image = await t.app.inject({ method: 'GET', url: data.musicVideoImage });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/svg+xml');
    expect(image.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(image.body).toMatch(/^<svg /);
    const cardImage = await t.app.inject({ method: 'GET', url: list[0]?.image ?? '' });
    expect(cardImage.statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/content/images/nope.svg' })).statusCode).toBe(404);
  });

  it('stores feedback, answers the success message and lists it for operators', async () => {
    const response = await sendFeedback({
      name: 'Bat',
      email: 'Bat@Example.mn',
      feedback: 'Love the app!\nMore jazz please.',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: FEEDBACK_SUCCESS_MESSAGE });

    const listing = await runAdmin(feedbackList, []);
    expect(listing).toMatch(/Bat <bat@example\.mn>\n {4}Love the app!\n {4}More jazz please\./);
    const json = JSON.parse(await runAdmin(feedbackList, ['--json', '--email', 'bat@example.mn']));
    expect(json).toEqual([expect.objectContaining({ name: 'Bat', email: 'bat@example.mn' })]);
    await expect(runAdmin(feedbackList, ['--limit', 'x'])).rejects.toThrow(/--limit/);

    // Development only: the same command's output over HTTP, for tests that cannot open PGlite.
    const overHttp = await t.app.inject({
      method: 'GET',
      url: '/dev/feedback',
      query: { email: 'bat@example.mn' },
    });
    expect(overHttp.statusCode).toBe(200);
    expect(overHttp.headers['content-type']).toMatch(/^text\/plain/);
    expect(overHttp.body).toBe(`${await runAdmin(feedbackList, ['--email', 'bat@example.mn'])}\n`);
    expect(overHttp.body).toMatch(/Bat <bat@example\.mn>\n {4}Love the app!/);
  });

  it.each([
    [{ email: 'a@b.mn', feedback: 'x' }, 'name'],
    [{ name: 'A', email: 'not-an-email', feedback: 'x' }, 'email'],
    [{ name: 'A', email: 'a@b.mn', feedback: '   ' }, 'feedback'],
    [{ name: 'A'.repeat(101), email: 'a@b.mn', feedback: 'x' }, 'name'],
    [{ name: 'A', email: 'a@b.mn', feedback: 'x'.repeat(2001) }, 'feedback'],
  ])('refuses bad feedback %#, naming the field and storing nothing', async (payload, field) => {
    const before = (
      await t.db.selectFrom('feedback').select(t.db.fn.countAll().as('n')).executeTakeFirstOrThrow()
    ).n;
    const response = await sendFeedback(payload, '198.51.100.1');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'bad_request', field });
    const after = (
      await t.db.selectFrom('feedback').select(t.db.fn.countAll().as('n')).executeTakeFirstOrThrow()
    ).n;
    expect(after).toBe(before);
  });

  it('throttles feedback from one e-mail address to 5 an hour', async () => {
    const payload = { name: 'Spam', email: 'spam@example.mn', feedback: 'hi' };
    for (let i = 0; i < 5; i++) expect((await sendFeedback(payload, `192.0.2.${i}`)).statusCode).toBe(200);
    const refused = await sendFeedback(payload, '192.0.2.99');
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    const stored = await t.db
      .selectFrom('feedback')
      .selectAll()
      .where('email', '=', 'spam@example.mn')
      .execute();
    expect(stored).toHaveLength(5);
    t.clock.advance(60 * 60 * 1000);
    expect((await sendFeedback(payload, '192.0.2.100')).statusCode).toBe(200);
  });

  it('throttles feedback from one client address to 20 an hour', async () => {
    for (let i = 0; i < 20; i++) {
      const response = await sendFeedback(
        { name: 'N', email: `p${i}@example.mn`, feedback: 'x' },
        '203.0.113.50',
      );
      expect(response.statusCode).toBe(200);
    }
    const refused = await sendFeedback({ name: 'N', email: 'p99@example.mn', feedback: 'x' }, '203.0.113.50');
    expect(refused.statusCode).toBe(429);
  });
});
