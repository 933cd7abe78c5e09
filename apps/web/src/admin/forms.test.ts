import { voucherBatchRequestSchema } from '@tunes/shared/console';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { schemaResolver } from './forms';
import { consoleI18nOptions, i18n } from './i18n';

beforeAll(async () => {
  await i18n.init(consoleI18nOptions('en', i18n, true));
});

const schema = voucherBatchRequestSchema.omit({ expiresAt: true }).extend({ expiresOn: z.iso.date() });
const resolve = (values: object) =>
  schemaResolver(schema)(values as z.input<typeof schema>, undefined, {
    fields: {},
    shouldUseNativeValidation: false,
  });

describe('a console form checked by a shared schema', () => {
  it('passes the values the schema gives', async () => {
    const result = await resolve({
      packageCode: ' PREMIUM ',
      days: 30,
      count: 3,
      expiresOn: '2031-03-15',
      note: '',
    });
    expect(result.errors).toEqual({});
    expect(result.values).toEqual({
      packageCode: 'PREMIUM',
      days: 30,
      count: 3,
      expiresOn: '2031-03-15',
      note: '',
    });
  });

  it('names each wrong field in the console’s words, in the active language', async () => {
    const values = {
      packageCode: '',
      days: 400,
      count: Number.NaN,
      expiresOn: 'soon',
      note: 'x'.repeat(201),
    };
    const { errors } = await resolve(values);
    expect(errors.packageCode?.message).toBe('Fill this in.');
    expect(errors.days?.message).toBe('At most 366.');
    expect(errors.count?.message).toBe('Enter a whole number.');
    expect(errors.expiresOn?.message).toBe('Choose a date.');
    expect(errors.note?.message).toBe('At most 200 characters.');
    await i18n.changeLanguage('mn');
    try {
      expect((await resolve(values)).errors.days?.message).toBe('Хамгийн ихдээ 366.');
    } finally {
      await i18n.changeLanguage('en');
    }
  });
});
