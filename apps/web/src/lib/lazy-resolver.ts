import type { FieldValues, Resolver } from 'react-hook-form';
import type * as z from 'zod/v4/core';

type Schema<Input extends FieldValues, Output> = z.$ZodType<Output, Input>;

/**
 * A form's zod resolver whose schema (and zod, 24 KB compressed) loads when the form is first
 * checked, not before the page's first paint (docs/performance.md). `warm()` starts the load
 * sooner: forms call it when a field takes focus, so by the submit it is in.
 *
 * If the schema cannot load (the network dropped), the values go on unchecked: the server checks
 * every input again and its answer names what is wrong, so a submit still says something.
 */
export function lazyZodResolver<Input extends FieldValues, Output = Input>(
  load: () => Promise<Schema<Input, Output>>,
): Resolver<Input, unknown, Output> & { warm(): void } {
  let ready: Promise<Resolver<Input, unknown, Output>> | undefined;
  const resolver = () => {
    ready ??= Promise.all([load(), import('@hookform/resolvers/zod')]).then(
      ([schema, { zodResolver }]) => zodResolver(schema) as Resolver<Input, unknown, Output>,
      (error: unknown) => {
        ready = undefined; // the next check tries again
        throw error;
      },
    );
    return ready;
  };
  const resolve: Resolver<Input, unknown, Output> = async (values, context, options) => {
    let check: Resolver<Input, unknown, Output>;
    try {
      check = await resolver();
    } catch {
      return { values: values as unknown as Output, errors: {} };
    }
    return check(values, context, options);
  };
  return Object.assign(resolve, {
    warm: () => {
      resolver().catch(() => {});
    },
  });
}
