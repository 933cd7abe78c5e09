import type { DemoSeed } from './db/seed.js';
import { landingContentSeed } from './modules/content/seed.js';
import { premiumPlansSeed } from './modules/premium/seed.js';

/** Demo data applied once on a fresh database when SEED_DEMO_DATA is on (product.md §11). */
export const demoSeeds: DemoSeed[] = [premiumPlansSeed, landingContentSeed];
