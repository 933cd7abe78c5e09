import { parseArgs } from 'node:util';
import { listUserSubscriptions } from '../../modules/subscriptions/queries.js';
import { type AdminCommand, UsageError } from '../command.js';

export const command: AdminCommand = {
  name: 'users:show',
  summary: 'Show a user (by id, e-mail or full phone number) with their subscriptions.',
  usage: 'users:show (--id <uuid> | --email <address> | --phone <97688112233>)',
  async run(args, { db: openDb, print }) {
    const { values } = parseArgs({
      args,
      options: { id: { type: 'string' }, email: { type: 'string' }, phone: { type: 'string' } },
    });
    if (!values.id && !values.email && !values.phone) throw new UsageError('Give --id, --email or --phone.');
    if (values.id && !/^[0-9a-f-]{36}$/i.test(values.id))
      throw new UsageError('--id must be a user id (uuid).');
    const db = await openDb();
    let query = db.selectFrom('users').selectAll();
    if (values.id) query = query.where('id', '=', values.id);
    else if (values.email) query = query.where('primary_email', '=', values.email.trim().toLowerCase());
    else query = query.where('phone_number', '=', String(values.phone).replace(/\D/g, ''));
    const user = await query.executeTakeFirst();
    if (!user) {
      print('No such user.');
      return;
    }
    const { password_hash: _hidden, ...visible } = user;
    const subscriptions = await listUserSubscriptions(db, user.id, new Date());
    print(JSON.stringify({ ...visible, hasPassword: Boolean(_hidden), subscriptions }, null, 2));
  },
};
