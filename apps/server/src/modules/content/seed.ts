import type { DemoSeed } from '../../db/seed.js';
import { systemClock } from '../../lib/clock.js';
import { importContent } from './content-store.js';
import { demoContent } from './demo-content.js';

/** Banner texts, 8 artists, 12 songs, 8 playlists, a music video and three reels (product.md §11). */
export const landingContentSeed: DemoSeed = {
  name: 'content:landing-demo',
  async run(db) {
    await importContent({ db, clock: systemClock }, demoContent);
  },
};
