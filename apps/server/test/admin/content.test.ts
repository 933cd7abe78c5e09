import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoContent } from '../../src/modules/catalog/catalog-file.js';
import { importContent } from '../../src/modules/content/content-store.js';
import { auditEntries, consoleCall, signedInOperator } from '../helpers/console.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
let editor: { cookie: string; email: string };
let admin: { cookie: string };
beforeAll(async () => {
  t = await createTestApp();
  await importContent(t.deps, demoContent());
  editor = await signedInOperator(t, 'content');
  admin = await signedInOperator(t, 'admin');
});
afterAll(async () => {
  await t.close();
});

interface Draft {
  landing: {
    banner: { title: { en: string; mn: string }; description: { en: string; mn: string } };
    musicVideo: string;
    musicVideoImage: string;
    reels: { url: string; description: { en: string; mn: string } }[];
  };
  cards: { id: string; type: string; title: { en: string; mn: string }; position: number }[];
  changed: boolean;
}

const landing = (lang?: string) =>
  t.app.inject({ method: 'GET', url: `/api/landing-page${lang ? `?lang=${lang}` : ''}` });
const cards = (lang?: string) =>
  t.app.inject({ method: 'GET', url: `/api/landing-page/contents/list/ALL${lang ? `?lang=${lang}` : ''}` });

describe('landing content in both languages', () => {
  it('serves Mongolian card titles and reel descriptions with ?lang=mn, English by default', async () => {
    const en = (await cards()).json() as { result: { title: string; type: string }[] };
    const mn = (await cards('mn')).json() as { result: { title: string; type: string }[] };
    expect(en.result[0]?.title).toBe('Steppe Echo');
    expect(mn.result[0]?.title).toBe('Талын цуурай');
    const reelsMn = (await landing('mn')).json() as { result: { reels: { description: string }[] } };
    expect(reelsMn.result.reels[0]?.description).toBe('Улаанбаатарын тайзны ар талд');
    const reelsEn = (await landing()).json() as { result: { reels: { description: string }[] } };
    expect(reelsEn.result.reels[0]?.description).toBe('Backstage in Ulaanbaatar');
  });

  it('falls back to English where an import has no Mongolian text', async () => {
    const other = await createTestApp();
    try {
      await importContent(other.deps, {
        ...demoContent(),
        cards: [{ type: 'ARTIST', title: 'Only English', tunesUrl: 'https://tunes.mn/a', image: '/a.svg' }],
      });
      const mn = (
        await other.app.inject({ method: 'GET', url: '/api/landing-page/contents/list/ALL?lang=mn' })
      ).json();
      expect(mn).toMatchObject({ result: [{ title: 'Only English' }] });
    } finally {
      await other.close();
    }
  });
});

describe('editing, preview and publish', () => {
  it('changes the banner and a reel in the draft, previews them, and listeners see them only after publish', async () => {
    const draft = (await consoleCall(t, editor.cookie, 'GET', '/api/admin/content')).json() as Draft;
    expect(draft.changed).toBe(false);
    expect(draft.cards.filter((card) => card.type === 'ARTIST').length).toBeGreaterThanOrEqual(8);

    const edited = {
      ...draft.landing,
      banner: {
        title: { en: 'Summer of songs', mn: 'Дууны зун' },
        description: draft.landing.banner.description,
      },
      reels: draft.landing.reels.map((reel, index) =>
        index === 1
          ? { url: 'https://youtu.be/v4xZUr0BEfE', description: { en: 'Fresh reel', mn: 'Шинэ бичлэг' } }
          : reel,
      ),
    };
    const saved = await consoleCall(t, editor.cookie, 'PUT', '/api/admin/content/landing', edited);
    expect(saved.statusCode, saved.body).toBe(200);

    const preview = await consoleCall(t, editor.cookie, 'GET', '/api/admin/content/preview?lang=mn');
    expect(preview.json()).toMatchObject({
      landingPage: {
        result: {
          bannerDescEn: { title: 'Summer of songs' },
          bannerDescMn: { title: 'Дууны зун' },
          reels: [{}, { url: 'https://youtu.be/v4xZUr0BEfE', description: 'Шинэ бичлэг' }, {}],
        },
      },
    });
    // Not published yet.
    expect((await landing()).json()).toMatchObject({
      result: { bannerDescEn: { title: 'Music for every moment' } },
    });

    const published = await consoleCall(t, editor.cookie, 'POST', '/api/admin/content/publish', {});
    expect(published.statusCode, published.body).toBe(200);
    // At once, in this process (and in others through Redis or the revision).
    const afterEn = (await landing()).json();
    const afterMn = (await landing('mn')).json();
    expect(afterEn).toMatchObject({
      result: { bannerDescEn: { title: 'Summer of songs' }, reels: [{}, { description: 'Fresh reel' }, {}] },
    });
    expect(afterMn).toMatchObject({ result: { reels: [{}, { description: 'Шинэ бичлэг' }, {}] } });
    // The preview was exactly what a listener now gets.
    expect(preview.json().landingPage).toEqual(afterMn);

    const publishes = await auditEntries(t, admin.cookie, 'content.publish');
    expect(publishes[0]).toMatchObject({ operator: { email: editor.email } });
    const updates = await auditEntries(t, admin.cookie, 'content.landing.update');
    expect(updates[0]?.after).toMatchObject({ banner: { title: { en: 'Summer of songs' } } });
    expect(updates[0]?.before).toMatchObject({ banner: { title: { en: 'Music for every moment' } } });
  });

  it('adds, edits, orders and deletes cards', async () => {
    const made = await consoleCall(t, editor.cookie, 'POST', '/api/admin/content/cards', {
      type: 'PLAYLIST',
      title: { en: 'Night Drive', mn: 'Шөнийн аялал' },
      tunesUrl: 'https://tunes.mn/playlist/night-drive',
      image: '/api/content/images/x.svg',
    });
    expect(made.statusCode, made.body).toBe(201);
    const { card } = made.json() as { card: { id: string; position: number } };
    const bad = await consoleCall(t, editor.cookie, 'POST', '/api/admin/content/cards', {
      type: 'PLAYLIST',
      title: { en: 'No Mongolian' },
      tunesUrl: 'javascript:alert(1)',
      image: '/a.svg',
    });
    expect(bad.statusCode).toBe(400);

    const draft = (await consoleCall(t, editor.cookie, 'GET', '/api/admin/content')).json() as Draft;
    const playlists = draft.cards.filter((c) => c.type === 'PLAYLIST');
    expect(playlists.at(-1)?.id).toBe(card.id);
    const order = [card.id, ...playlists.filter((c) => c.id !== card.id).map((c) => c.id)];
    const ordered = await consoleCall(t, editor.cookie, 'PUT', '/api/admin/content/cards/order', {
      type: 'PLAYLIST',
      ids: order,
    });
    expect(ordered.statusCode, ordered.body).toBe(200);
    const patched = await consoleCall(t, editor.cookie, 'PATCH', `/api/admin/content/cards/${card.id}`, {
      title: { en: 'Night Drive 2', mn: 'Шөнийн аялал 2' },
    });
    expect(patched.json()).toMatchObject({ card: { position: 0, title: { mn: 'Шөнийн аялал 2' } } });
    const victim = playlists[0]?.id ?? '';
    expect(
      (await consoleCall(t, editor.cookie, 'DELETE', `/api/admin/content/cards/${victim}`)).statusCode,
    ).toBe(204);
    expect(
      (await consoleCall(t, editor.cookie, 'DELETE', `/api/admin/content/cards/${victim}`)).statusCode,
    ).toBe(404);

    await consoleCall(t, editor.cookie, 'POST', '/api/admin/content/publish', {});
    const listed = (await cards('mn')).json() as { result: { type: string; title: string }[] };
    const listedPlaylists = listed.result.filter((c) => c.type === 'PLAYLIST');
    expect(listedPlaylists[0]?.title).toBe('Шөнийн аялал 2');
    // One added, one deleted.
    expect(listedPlaylists).toHaveLength(playlists.length - 1);
    for (const action of [
      'content.card.create',
      'content.card.update',
      'content.cards.order',
      'content.card.delete',
    ]) {
      expect(await auditEntries(t, admin.cookie, action), action).not.toHaveLength(0);
    }
  });

  it('keeps concurrent card additions (one draft, edited one at a time)', async () => {
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        consoleCall(t, editor.cookie, 'POST', '/api/admin/content/cards', {
          type: 'SONG',
          title: { en: `Burst ${index}`, mn: `Цуваа ${index}` },
          tunesUrl: `https://tunes.mn/song/burst-${index}`,
          image: '/a.svg',
        }),
      ),
    );
    expect(answers.every((answer) => answer.statusCode === 201)).toBe(true);
    const draft = (await consoleCall(t, editor.cookie, 'GET', '/api/admin/content')).json() as Draft;
    const burst = draft.cards.filter((card) => card.title.en.startsWith('Burst'));
    expect(burst).toHaveLength(8);
    expect(new Set(burst.map((card) => card.position)).size).toBe(8);
  });
});

describe('image upload', () => {
  const png = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(64, 1)]);
  const upload = (body: Buffer, type: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/admin/content/images',
      headers: { cookie: editor.cookie, 'x-tunes-console': '1', 'content-type': type },
      payload: body,
    });

  it('stores PNG, JPEG or WebP by their bytes and serves them under a stable URL', async () => {
    const answer = await upload(png, 'image/png');
    expect(answer.statusCode, answer.body).toBe(201);
    const { url } = answer.json() as { url: string };
    expect(url).toMatch(/^\/api\/content\/uploads\/[0-9a-f]{64}\.png$/);
    const served = await t.app.inject({ method: 'GET', url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.rawPayload.equals(png)).toBe(true);
    expect((await upload(png, 'image/png')).json()).toEqual({ url });
    expect(await auditEntries(t, admin.cookie, 'content.image.upload')).not.toHaveLength(0);
  });

  it('refuses other bytes, a lying type and images over 2 MB', async () => {
    const html = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    expect((await upload(html, 'image/png')).statusCode).toBe(415);
    expect((await upload(png, 'image/gif')).statusCode).toBe(415);
    const big = Buffer.concat([png, Buffer.alloc(2 * 1024 * 1024)]);
    expect((await upload(big, 'image/png')).statusCode).toBe(413);
  });
});
