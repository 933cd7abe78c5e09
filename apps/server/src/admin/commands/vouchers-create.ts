import { parseArgs } from 'node:util';
import { createVouchersSchema } from '@tunes/shared/vouchers';
import { systemClock } from '../../lib/clock.js';
import { AppError } from '../../lib/errors.js';
import { createCommandLineBatch } from '../../modules/console/command-line-batches.js';
import { type AdminCommand, UsageError } from '../command.js';

export const command: AdminCommand = {
  name: 'vouchers:create',
  summary: 'Create vouchers that activate a package (by merchant code) for some days; prints the codes.',
  usage:
    'vouchers:create --package <MERCHANT_CODE> --days <n> --count <n> [--expires <ISO date>] [--note <text>]',
  async run(args, { db: openDb, print }) {
    const { values } = parseArgs({
      args,
      options: {
        package: { type: 'string' },
        days: { type: 'string' },
        count: { type: 'string', default: '1' },
        expires: { type: 'string' },
        note: { type: 'string' },
      },
    });
    if (values.note && values.note.length > 200) throw new UsageError('--note: at most 200 characters.');
    const expires = values.expires ? new Date(values.expires) : undefined;
    if (expires && Number.isNaN(expires.getTime()))
      throw new UsageError('--expires must be a date, e.g. 2027-01-31.');
    const parsed = createVouchersSchema.safeParse({
      package: values.package,
      days: values.days,
      count: values.count,
      expiresAt: expires?.toISOString(),
    });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new UsageError(`--${String(issue?.path[0] ?? 'package')}: ${issue?.message ?? 'invalid'}`);
    }
    const db = await openDb();
    try {
      // A batch of its own, so the console lists it (issue 36).
      const { codes, packageName, expiresAt } = await createCommandLineBatch(
        { db, clock: systemClock },
        { ...parsed.data, note: values.note },
      );
      print(
        `${codes.length} voucher(s) for ${packageName}, ${parsed.data.days} day(s) each` +
          (expiresAt ? `, redeemable until ${expiresAt.toISOString()}` : '') +
          ':',
      );
      for (const code of codes) print(code);
    } catch (error) {
      if (error instanceof AppError && error.statusCode === 404) {
        const known = await db
          .selectFrom('packages')
          .select('merchant_code')
          .orderBy('merchant_code')
          .execute();
        const list = known.map((row) => row.merchant_code).join(', ') || 'none yet';
        throw new UsageError(
          `--package: no package has the code ${parsed.data.package}. Valid codes: ${list}.`,
        );
      }
      if (error instanceof AppError && error.statusCode < 500) throw new UsageError(error.message);
      throw error;
    }
  },
};
