import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/** A named batch of demo data, applied once per database (product.md §11). */
export interface DemoSeed {
  name: string;
  run(db: Kysely<Database>): Promise<void>;
}

export async function applyDemoSeeds(db: Kysely<Database>, seeds: readonly DemoSeed[]): Promise<string[]> {
  const applied: string[] = [];
  for (const seed of seeds) {
    const ran = await db.transaction().execute(async (trx) => {
      const claimed = await trx
        .insertInto('demo_seeds')
        .values({ name: seed.name })
        .onConflict((oc) => oc.column('name').doNothing())
        .returning('name')
        .executeTakeFirst();
      if (!claimed) return false;
      await seed.run(trx);
      return true;
    });
    if (ran) applied.push(seed.name);
  }
  return applied;
}
