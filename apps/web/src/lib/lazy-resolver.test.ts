import type { ResolverOptions } from 'react-hook-form';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { lazyZodResolver } from './lazy-resolver';

type Values = { email: string };
const options: ResolverOptions<Values> = { fields: {}, names: ['email'], shouldUseNativeValidation: false };
const schema = z.object({ email: z.string().trim().min(1, 'validation.required') });

describe('lazyZodResolver', () => {
  it("checks with the schema once it has loaded, and gives the schema's output", async () => {
    let loads = 0;
    const resolver = lazyZodResolver<Values>(async () => {
      loads++;
      return schema;
    });
    const refused = await resolver({ email: ' ' }, undefined, options);
    expect(refused.errors.email?.message).toBe('validation.required');
    const passed = await resolver({ email: ' a@b.mn ' }, undefined, options);
    expect(passed).toEqual({ values: { email: 'a@b.mn' }, errors: {} });
    expect(loads).toBe(1);
  });

  it('lets the values through when the schema cannot load, and tries again on the next check', async () => {
    let loads = 0;
    const resolver = lazyZodResolver<Values>(async () => {
      loads++;
      if (loads === 1) throw new TypeError('Failed to fetch dynamically imported module');
      return schema;
    });
    expect(await resolver({ email: ' ' }, undefined, options)).toEqual({
      values: { email: ' ' },
      errors: {},
    });
    const second = await resolver({ email: ' ' }, undefined, options);
    expect(second.errors.email?.message).toBe('validation.required');
    expect(loads).toBe(2);
  });
});
