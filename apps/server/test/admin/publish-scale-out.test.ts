import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoContent } from '../../src/modules/catalog/catalog-file.js';
import { importContent } from '../../src/modules/content/content-store.js';
import { consoleCall, signedInOperator } from '../helpers/console.js';
import { createTestApp, type TestApp, testDatabaseKind } from '../helpers/test-app.js';

/**
 * Two API processes on one PostgreSQL with Redis: a publish through one is served by the other
 * at once. The shared test clock never moves here, so the other process's per-second revision
 * check never runs: only the Redis message can make it drop its copy.
 */
const REDIS_URL = 'redis://127.0.0.1:6379';
describe.skipIf(testDatabaseKind !== 'postgres')('publish across processes (PostgreSQL + Redis)', () => {
  let first: TestApp;
  let second: TestApp;
  beforeAll(async () => {
    first = await createTestApp({ REDIS_URL });
    second = await createTestApp({ REDIS_URL }, { shareDatabaseWith: first });
    await importContent(first.deps, demoContent());
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it("reaches the other process's landing cache through Redis pub/sub", async () => {
    const landing = () => second.app.inject({ method: 'GET', url: '/api/landing-page' });
    expect((await landing()).json()).toMatchObject({
      result: { bannerDescEn: { title: 'Music for every moment' } },
    });
    const editor = await signedInOperator(first, 'content');
    const draft = (await consoleCall(first, editor.cookie, 'GET', '/api/admin/content')).json() as {
      landing: { banner: { title: { en: string; mn: string } } };
    };
    draft.landing.banner.title = { en: 'Published elsewhere', mn: 'Өөр процессоос' };
    await consoleCall(first, editor.cookie, 'PUT', '/api/admin/content/landing', draft.landing);
    expect(
      (await consoleCall(first, editor.cookie, 'POST', '/api/admin/content/publish', {})).statusCode,
    ).toBe(200);
    await expect
      .poll(
        async () =>
          ((await landing()).json() as { result: { bannerDescEn: { title: string } } }).result.bannerDescEn
            .title,
        {
          timeout: 5000,
        },
      )
      .toBe('Published elsewhere');
  });
});
