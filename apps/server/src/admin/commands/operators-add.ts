import { parseArgs } from 'node:util';
import { createOperatorSchema } from '@tunes/shared/console';
import { systemClock } from '../../lib/clock.js';
import { AppError } from '../../lib/errors.js';
import { createOperator } from '../../modules/console/operators.js';
import { type AdminCommand, UsageError } from '../command.js';

export const command: AdminCommand = {
  name: 'operators:add',
  summary: 'Add an operator of the console (admin, support or content); prints a one-time set-up link.',
  usage: 'operators:add --email <e-mail> --role admin|support|content',
  async run(args, { config, db: openDb, print }) {
    const { values } = parseArgs({ args, options: { email: { type: 'string' }, role: { type: 'string' } } });
    if (!values.email) throw new UsageError('--email is required.');
    if (!values.role) throw new UsageError('--role is required: admin, support or content.');
    const parsed = createOperatorSchema.safeParse({ email: values.email, role: values.role });
    if (!parsed.success) {
      const field = String(parsed.error.issues[0]?.path[0] ?? 'email');
      throw new UsageError(
        field === 'role'
          ? '--role must be admin, support or content.'
          : `--email: ${values.email} is not an e-mail address.`,
      );
    }
    const db = await openDb();
    try {
      const { operator, setupUrl } = await createOperator({ db, clock: systemClock }, parsed.data, null);
      print(`Operator ${operator.email} (${operator.role}) added. One-time set-up link, valid for 24 hours:`);
      print(`${config.PUBLIC_URL}${setupUrl}`);
    } catch (error) {
      if (error instanceof AppError && error.statusCode < 500) throw new UsageError(error.message);
      throw error;
    }
  },
};
