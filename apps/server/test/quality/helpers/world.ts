import type { Kysely } from 'kysely';
import type { Database, User } from '../../../src/db/schema.js';
import { applyDemoSeeds } from '../../../src/db/seed.js';
import { demoSeeds } from '../../../src/demo-seeds.js';
import { createUser } from '../../helpers/factories.js';
import type { Operation, Parameter } from './openapi.js';

/**
 * A small populated product for the quality suites: the demo data every module seeds, a family
 * plan owner with a member, and a stranger who owns nothing.
 */
export interface World {
  owner: User;
  member: User;
  stranger: User;
  subscriptionId: string;
  /** Demo seeds that threw (named), so one broken seed fails one test instead of every suite. */
  seedFailures: string[];
}

const DAY = 86_400_000;

export async function buildWorld(db: Kysely<Database>, now: Date): Promise<World> {
  const seedFailures: string[] = [];
  for (const seed of demoSeeds) {
    try {
      await applyDemoSeeds(db, [seed]);
    } catch (error) {
      seedFailures.push(`${seed.name}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  const owner = await createUser(db, {
    primary_email: `owner.${now.getTime()}@example.mn`,
    first_name: 'Owner',
  });
  const member = await createUser(db, { first_name: 'Member' });
  const stranger = await createUser(db, { first_name: 'Stranger' });

  const plan = await db
    .selectFrom('packages')
    .select('id')
    .where('allow_share', '=', true)
    .orderBy('max_shared_users', 'desc')
    .executeTakeFirstOrThrow(() => new Error('The demo seeds hold no shareable plan.'));
  const subscription = await db
    .insertInto('subscriptions')
    .values({
      owner_id: owner.id,
      package_id: plan.id,
      start_date: new Date(now.getTime() - DAY),
      end_date: new Date(now.getTime() + 29 * DAY),
      is_auto_renew: true,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('subscription_members')
    .values({ subscription_id: subscription.id, user_id: member.id })
    .execute();
  return { owner, member, stranger, subscriptionId: subscription.id, seedFailures };
}

/**
 * A real value for a path parameter, chosen by its name and place: the owner's id for `sub` or
 * `userId`, the member for a shared-user path, the owner's subscription for `id`. Unknown names
 * get `undefined` and a schema sample instead.
 */
export function worldValue(world: World, operation: Operation, parameter: Parameter): string | undefined {
  const name = parameter.name.toLowerCase();
  const formatIsUuid = parameter.schema.format === 'uuid';
  if (/shared-users/.test(operation.path) && name === 'userid') return world.member.id;
  if (name === 'sub' || name === 'userid' || name === 'user_id') return world.owner.id;
  if (name === 'subscriptionid' || (name === 'id' && /subscription/.test(operation.path)))
    return world.subscriptionId;
  if (name === 'id' && /users?\//.test(operation.path)) return world.owner.id;
  if (name === 'id' && formatIsUuid) return world.subscriptionId;
  return undefined;
}
