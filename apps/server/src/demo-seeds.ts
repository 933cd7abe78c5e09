import type { DemoSeed } from './db/seed.js';
import { landingContentSeed, premiumPlansSeed } from './modules/catalog/demo-seeds.js';

/** Demo data applied once on a fresh database when SEED_DEMO_DATA is on (product.md §11). */
export const demoSeeds: DemoSeed[] = [premiumPlansSeed, landingContentSeed];
