import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { distOf } from './databases.mjs';

const DAY = 86_400_000;

/**
 * The launch day's existing listeners: the generated users (bench/lib/generate-users.mjs), each
 * signed in once on a device of its own, as `issueTokenPair` leaves it: a refresh-token family
 * in the database (the token's SHA-256 stored) and an access token of that sign-in, signed with
 * the server's JWT secret. Each has an address of its own (X-Forwarded-For). The generated
 * periods are backed in the ledger as given ones (an extension, as `POST /dev/premium/subscriptions`
 * records), so the books check afterwards judges the launch's own payments.
 */
export async function signInListeners(root, databaseOptions, { jwtSecret, accessTtlSeconds = 3600 }) {
  const dist = distOf(root);
  const { openDatabase } = await dist('db/database.js');
  const { AccessTokens } = await dist('lib/access-tokens.js');
  const accessTokens = new AccessTokens(jwtSecret, accessTtlSeconds);
  const handle = await openDatabase(databaseOptions);
  try {
    await sql`
      insert into payment_ledger (subscription_id, entry, method, reference, amount, currency, outcome, reason, created_at)
      select s.id, 'capture', 'extension', 'bench:' || s.id, 0, 'MNT', 'applied', 'a generated listener', now()
      from subscriptions s`.execute(handle.db);
    const users = await handle.db
      .selectFrom('users')
      .select('id')
      .where('username', 'like', '9769%')
      .orderBy('username')
      .execute();
    const now = new Date();
    const listeners = [];
    for (let start = 0; start < users.length; start += 1000) {
      const batch = users.slice(start, start + 1000).map((user) => ({
        sub: user.id,
        familyId: randomUUID(),
        refresh: randomBytes(32).toString('base64url'),
      }));
      await handle.db
        .insertInto('refresh_tokens')
        .values(
          batch.map((listener) => ({
            token_hash: createHash('sha256').update(listener.refresh).digest('hex'),
            user_id: listener.sub,
            family_id: listener.familyId,
            expires_at: new Date(now.getTime() + 30 * DAY),
            created_at: now,
          })),
        )
        .execute();
      for (const listener of batch) {
        const index = listeners.length;
        listeners.push({
          sub: listener.sub,
          refresh: listener.refresh,
          access: await accessTokens.sign(listener.sub, now.getTime(), listener.familyId),
          address: `172.${16 + ((index >> 16) & 15)}.${(index >> 8) & 255}.${index & 255}`,
        });
      }
    }
    return listeners;
  } finally {
    await handle.close();
  }
}
