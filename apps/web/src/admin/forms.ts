import { toNestErrors } from '@hookform/resolvers';
import type { FieldError, FieldValues, Path, Resolver, UseFormReturn } from 'react-hook-form';
import type { z } from 'zod';
import { isApiError, userMessage } from '@/lib/api-error';
import { i18n } from './i18n';

/**
 * The console's forms: react-hook-form checked by the shared zod schemas (`@tunes/shared/console`)
 * before a call, the server's answer on the field it names after. A schema's own message is a
 * key of the site's `validation` texts (FormField translates it) or an English sentence for the
 * API; the console reads every other issue in its own words, in the active language.
 */

type Issue = z.core.$ZodIssue;

/** The shared schemas' English sentences (for the API), read in the console's words. */
const SENTENCES: Record<string, ValidationKey> = {
  'must be the 6 digits of the authenticator app': 'code',
  'must be an http(s) URL': 'url',
  'must be an http(s) URL or a path on this site': 'image',
  'must be a YouTube (watch, youtu.be, Shorts, embed) or Facebook video link': 'video',
};

type ValidationKey =
  | 'required'
  | 'too-short'
  | 'too-long'
  | 'at-least'
  | 'at-most'
  | 'whole-number'
  | 'format'
  | 'code'
  | 'url'
  | 'image'
  | 'video'
  | 'date'
  | 'choose';

const text = (key: ValidationKey, values: Record<string, unknown> = {}) =>
  i18n.t(`validation.${key}`, { ns: 'admin', ...values });

/** What the operator reads for one issue of a schema. */
export function issueText(issue: Issue): string {
  if (issue.message.startsWith('validation.')) return issue.message;
  const sentence = SENTENCES[issue.message];
  if (sentence) return text(sentence);
  switch (issue.code) {
    case 'too_small':
      if (issue.origin === 'string')
        return Number(issue.minimum) <= 1 ? text('required') : text('too-short', { min: issue.minimum });
      return text('at-least', { min: issue.minimum });
    case 'too_big':
      return issue.origin === 'string'
        ? text('too-long', { max: issue.maximum })
        : text('at-most', { max: issue.maximum });
    case 'invalid_type':
      return issue.expected === 'number' || issue.expected === 'int'
        ? text('whole-number')
        : text('required');
    case 'invalid_format':
      return issue.format === 'date' || issue.format === 'datetime' ? text('date') : text('format');
    case 'invalid_value':
      return text('choose');
    default:
      return text('format');
  }
}

/** A react-hook-form resolver of a shared schema, its issues in the console's words. */
export function schemaResolver<Input extends FieldValues, Output>(
  schema: z.ZodType<Output, Input>,
): Resolver<Input, unknown, Output> {
  return async (values, _context, options) => {
    const result = await schema.safeParseAsync(values);
    if (result.success) return { values: result.data, errors: {} };
    const errors: Record<string, FieldError> = {};
    for (const issue of result.error.issues) {
      const path = issue.path.join('.');
      errors[path] ??= { type: issue.code, message: issueText(issue) };
    }
    return { values: {}, errors: toNestErrors(errors, options) };
  };
}

/**
 * The server's refusal of a submitted form: on the field it names (`field` of a 400, or the field
 * `fields` gives for its name or error code), else as the form's error (`root.server`).
 */
export function showFailure<Values extends FieldValues, Output>(
  form: UseFormReturn<Values, unknown, Output>,
  error: unknown,
  fields: Partial<Record<string, Path<Values>>> = {},
): void {
  const message = userMessage(error);
  const named = isApiError(error) ? error.field : undefined;
  const code = isApiError(error) ? error.code : undefined;
  const field =
    (named && fields[named]) ||
    (code && fields[code]) ||
    (named && named in form.getValues() ? (named as Path<Values>) : undefined);
  if (field) form.setError(field, { type: 'server', message }, { shouldFocus: true });
  else form.setError('root.server', { type: 'server', message });
}

/** A form checked inside a confirm dialog found wrong: its fields say why, no toast. */
export class FormInvalid extends Error {
  override name = 'FormInvalid';
}

/** The form's checked values, or FormInvalid (its fields then show their errors). */
export async function checked<Values extends FieldValues, Output>(
  form: UseFormReturn<Values, unknown, Output>,
): Promise<Output> {
  let values: Output | undefined;
  await form.handleSubmit((valid) => {
    values = valid;
  })();
  if (values === undefined) throw new FormInvalid();
  return values;
}
