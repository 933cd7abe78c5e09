import { parseArgs } from 'node:util';
import { mintHmacToken } from '../../modules/accounts/hmac.js';
import { type AdminCommand, UsageError } from '../command.js';

export const command: AdminCommand = {
  name: 'hmac:mint',
  summary: 'Print a silent-login token for /premium?userId=<id>&token=<token> (valid 5 minutes, once).',
  usage: 'hmac:mint --user <uuid>',
  async run(args, { config, db: openDb, print }) {
    const { values } = parseArgs({ args, options: { user: { type: 'string' } } });
    if (!values.user || !/^[0-9a-f-]{36}$/i.test(values.user))
      throw new UsageError('--user must be a user id (uuid).');
    const db = await openDb();
    const user = await db.selectFrom('users').select('id').where('id', '=', values.user).executeTakeFirst();
    if (!user) throw new UsageError(`No user has the id ${values.user}.`);
    const token = mintHmacToken(config.HMAC_SECRET, user.id, new Date());
    // Only the token, so scripts can capture it; the link is /premium?userId=<id>&token=<token>.
    print(token);
  },
};
