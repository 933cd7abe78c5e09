import { randomUUID } from 'node:crypto';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import type { JsonSchema, Operation } from './openapi.js';

/**
 * Request inputs derived from an operation's schemas: a valid request to start from, and
 * mutations of it that the schema forbids. Every "bad" request is checked against the schema
 * with Ajv, so a mutation that happens to be valid is never counted as bad input.
 */

const strictAjv = new Ajv({ strict: false, allErrors: false, validateFormats: true });
/** Path, query and form values arrive as strings; the server coerces them like this. */
const coercingAjv = new Ajv({ strict: false, allErrors: false, coerceTypes: true, validateFormats: true });
addFormats.default(strictAjv);
addFormats.default(coercingAjv);

const compiled = { strict: new WeakMap<JsonSchema, (value: unknown) => boolean>(), coercing: new WeakMap() };
function validator(schema: JsonSchema, coerce: boolean): (value: unknown) => boolean {
  const cache = coerce ? compiled.coercing : compiled.strict;
  let check = cache.get(schema);
  if (!check) {
    const validate = (coerce ? coercingAjv : strictAjv).compile(schema);
    // Coercion rewrites its input in place, so validate a copy.
    check = (value: unknown) => validate(structuredClone(value)) === true;
    cache.set(schema, check);
  }
  return check;
}

/** SQL, script, path, template and unicode payloads that must be harmless wherever they land. */
export const HOSTILE_STRINGS = [
  "' OR '1'='1' --",
  "'; DROP TABLE users; --",
  '1; SELECT pg_sleep(5)',
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  '../../../../etc/passwd',
  `\${7*7}{{7*7}}`,
  '%00%27',
  'null\u0000byte',
  '\u202Egnp.exe',
  'Монгол 🎵 𝄞 ǅ',
  '\uFEFF\u200B',
  '\\u0000',
  '   ',
];

export const HUGE_STRING = 'Ж'.repeat(40_000);

export interface RequestInput {
  pathParams: Record<string, string>;
  query: Record<string, string>;
  /** undefined: no body sent. */
  body?: unknown;
}

export interface BadCase {
  name: string;
  input: RequestInput;
}

const firstNonNullType = (schema: JsonSchema): string | undefined => {
  if (Array.isArray(schema.type)) return schema.type.find((type) => type !== 'null');
  if (schema.type) return schema.type;
  if (schema.properties) return 'object';
  if (schema.items) return 'array';
  return undefined;
};

function matchingString(pattern: string, minLength: number, maxLength: number): string {
  const regex = new RegExp(pattern);
  const samples = fc.sample(
    fc.stringMatching(regex).filter((value) => value.length >= minLength && value.length <= maxLength),
    { numRuns: 1, seed: 7 },
  );
  return samples[0] ?? '';
}

/** Values a person would type into fields of these names, used when the schema accepts them. */
const REALISTIC_VALUES: [RegExp, unknown][] = [
  [/mail|username/i, 'quality.check@example.mn'],
  [/msisdn/i, '97688112233'],
  [/phone/i, '88112233'],
  [/^to$/i, '88112233'],
  [/countrycode/i, 976],
  [/^country$/i, 'MN'],
  [/language/i, 'en'],
  [/otp|^code$|token/i, '1234'],
  [/password/i, 'quality-pass-1'],
  [/name/i, 'Quality'],
];

/** A value the schema accepts; `hint` (the field name) makes it realistic where that matters. */
export function validSample(schema: JsonSchema, hint = ''): unknown {
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants?.length) {
    const usable = variants.find((variant) => firstNonNullType(variant) !== undefined) ?? variants[0];
    return usable ? validSample(usable, hint) : null;
  }
  if (schema.allOf?.length) {
    return validSample(Object.assign({}, ...schema.allOf), hint);
  }
  const realistic = REALISTIC_VALUES.find(([name]) => name.test(hint))?.[1];
  if (realistic !== undefined && validator(schema, false)(realistic)) return realistic;
  switch (firstNonNullType(schema)) {
    case 'string': {
      const minLength = schema.minLength ?? 0;
      const maxLength = schema.maxLength ?? 200;
      if (schema.format === 'uuid') return randomUUID();
      if (schema.format === 'email') return 'quality.check@example.mn';
      if (schema.format === 'date-time') return new Date().toISOString();
      if (schema.format === 'date') return new Date().toISOString().slice(0, 10);
      if (schema.format === 'uri' || schema.format === 'url') return 'https://example.mn/';
      if (schema.pattern) return matchingString(schema.pattern, minLength, maxLength);
      if (/mail/i.test(hint)) return 'quality.check@example.mn';
      const base = 'quality-check';
      return base.length > maxLength ? base.slice(0, maxLength) : base.padEnd(minLength, 'x');
    }
    case 'integer':
    case 'number': {
      const minimum =
        typeof schema.exclusiveMinimum === 'number'
          ? schema.exclusiveMinimum + 1
          : typeof schema.minimum === 'number'
            ? schema.minimum
            : 1;
      const maximum =
        typeof schema.exclusiveMaximum === 'number'
          ? schema.exclusiveMaximum - 1
          : typeof schema.maximum === 'number'
            ? schema.maximum
            : minimum + 10;
      return Math.min(Math.max(minimum, 1), maximum);
    }
    case 'boolean':
      return true;
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, () => validSample(schema.items ?? {}, hint));
    case 'object': {
      const value: Record<string, unknown> = {};
      for (const key of schema.required ?? []) value[key] = validSample(schema.properties?.[key] ?? {}, key);
      return value;
    }
    case 'null':
      return null;
    default:
      return 'quality-check';
  }
}

/** Values of the wrong type for a schema (each checked later against the schema itself). */
function wrongTypes(schema: JsonSchema): unknown[] {
  switch (firstNonNullType(schema)) {
    case 'string':
      return [12345, true, { nested: 'object' }, ['array'], null];
    case 'integer':
    case 'number':
      return ['not-a-number', '12abc', true, 1.5, -1, Number.MAX_SAFE_INTEGER * 4, null, {}];
    case 'boolean':
      return ['maybe', 2, null, {}];
    case 'array':
      return ['not-an-array', { 0: 'x' }, 5, null];
    case 'object':
      return ['not-an-object', [], 42, null, true];
    default:
      return [];
  }
}

/** Invalid values for one field: wrong types, constraint breaches and hostile strings. */
export function invalidValues(schema: JsonSchema): unknown[] {
  const values = [...wrongTypes(schema)];
  if (firstNonNullType(schema) === 'string') {
    if (schema.maxLength !== undefined) values.push('x'.repeat(schema.maxLength + 1));
    if ((schema.minLength ?? 0) > 0) values.push('');
    if (schema.enum) values.push('NOT_AN_ALLOWED_VALUE');
    values.push(...HOSTILE_STRINGS, HUGE_STRING.slice(0, 5_000));
  }
  if (typeof schema.minimum === 'number') values.push(schema.minimum - 1);
  if (typeof schema.maximum === 'number') values.push(schema.maximum + 1);
  if (typeof schema.exclusiveMinimum === 'number') values.push(schema.exclusiveMinimum);
  if (typeof schema.exclusiveMaximum === 'number') values.push(schema.exclusiveMaximum);
  if (schema.enum) values.push('NOT_AN_ALLOWED_VALUE', 999);
  return values;
}

/** Strings a schema accepts although they are hostile: they must be stored or refused, not crash. */
export function hostileButValid(schema: JsonSchema, coerce: boolean): string[] {
  return HOSTILE_STRINGS.filter((value) => validator(schema, coerce)(value));
}

const objectSchemas = new WeakMap<Operation['query'], JsonSchema>();
function objectSchema(parameters: Operation['query']): JsonSchema {
  let schema = objectSchemas.get(parameters);
  if (!schema) {
    schema = parametersSchema(parameters);
    objectSchemas.set(parameters, schema);
  }
  return schema;
}

function parametersSchema(parameters: Operation['query']): JsonSchema {
  return {
    type: 'object',
    properties: Object.fromEntries(parameters.map((parameter) => [parameter.name, parameter.schema])),
    required: parameters.filter((parameter) => parameter.required).map((parameter) => parameter.name),
  };
}

const isForm = (operation: Operation) => operation.body?.contentType.includes('form') === true;

/** Whether the request as a whole breaks the operation's schemas (so the server must refuse it). */
export function isInvalid(operation: Operation, input: RequestInput): boolean {
  if (!validator(objectSchema(operation.pathParams), true)(input.pathParams)) return true;
  if (!validator(objectSchema(operation.query), true)(input.query)) return true;
  if (operation.body) {
    if (input.body === undefined) return operation.body.required;
    if (!validator(operation.body.schema, isForm(operation))(input.body)) return true;
  }
  return false;
}

/** Query and path values travel as text; a form body only holds text too. */
const asText = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

function mutateEach(
  parameters: Operation['query'],
  base: Record<string, string>,
  where: string,
  make: (values: Record<string, string>) => RequestInput,
): BadCase[] {
  const cases: BadCase[] = [];
  for (const parameter of parameters) {
    if (parameter.required) {
      const { [parameter.name]: _dropped, ...rest } = base;
      cases.push({ name: `${where} ${parameter.name} missing`, input: make(rest) });
    }
    for (const value of invalidValues(parameter.schema)) {
      if (value === null || typeof value === 'object') continue;
      const text = asText(value);
      if (where === 'path' && text === '') continue; // an empty segment is another route, not bad input
      cases.push({
        name: `${where} ${parameter.name} = ${JSON.stringify(text).slice(0, 40)}`,
        input: make({ ...base, [parameter.name]: text }),
      });
    }
  }
  return cases;
}

/**
 * Requests the operation must refuse: each path parameter, query parameter and body field made
 * wrong in turn (wrong type, missing, out of range, hostile text), bodies of the wrong shape,
 * and extra fields next to a missing one. Only cases the schema really forbids are returned.
 */
export function badCases(operation: Operation, valid: RequestInput): BadCase[] {
  const cases: BadCase[] = [];
  cases.push(
    ...mutateEach(operation.pathParams, valid.pathParams, 'path', (pathParams) => ({ ...valid, pathParams })),
    ...mutateEach(operation.query, valid.query, 'query', (query) => ({ ...valid, query })),
    {
      name: 'unknown query parameters only',
      input: {
        ...valid,
        query: Object.fromEntries([
          ['__proto__', 'x'],
          ['constructor', 'y'],
          ['a[b]', 'c'],
        ]),
      },
    },
  );

  const body = operation.body;
  if (body) {
    const form = isForm(operation);
    const validBody = (valid.body ?? {}) as Record<string, unknown>;
    const shapes: unknown[] = form ? [{}] : [[], 'text', 42, null, true, {}, [validBody]];
    for (const shape of shapes)
      cases.push({ name: `body ${JSON.stringify(shape)}`, input: { ...valid, body: shape } });
    cases.push({ name: 'no body', input: { ...valid, body: undefined } });
    const properties = body.schema.properties ?? {};
    for (const key of body.schema.required ?? []) {
      const { [key]: _dropped, ...rest } = validBody;
      cases.push({
        name: `body ${key} missing, extra fields added`,
        input: { ...valid, body: { ...rest, isAdmin: true, role: 'admin', OwnerId: randomUUID() } },
      });
    }
    for (const [key, schema] of Object.entries(properties)) {
      for (const value of invalidValues(schema)) {
        if (form && (value === null || typeof value === 'object')) continue;
        cases.push({
          name: `body ${key} = ${JSON.stringify(value)?.slice(0, 40)}`,
          input: { ...valid, body: { ...validBody, [key]: form ? asText(value) : value } },
        });
      }
    }
  }
  return cases.filter((candidate) => isInvalid(operation, candidate.input));
}

/** Arbitrary JSON bodies and path/query text for a property-based run; callers keep the invalid ones. */
export function arbitraryBadInput(operation: Operation, valid: RequestInput): fc.Arbitrary<RequestInput> {
  const text = fc.oneof(
    fc.string({ unit: 'grapheme', maxLength: 80 }),
    fc.string({ unit: 'binary', maxLength: 80 }),
    fc.constantFrom(...HOSTILE_STRINGS),
  );
  const parameterValues = (parameters: Operation['query'], base: Record<string, string>) =>
    parameters.length === 0
      ? fc.constant(base)
      : fc
          .record(Object.fromEntries(parameters.map((parameter) => [parameter.name, fc.option(text)])))
          .map((drawn) => {
            const values = { ...base };
            for (const [name, value] of Object.entries(drawn)) {
              if (value === null) continue;
              if (value === '') delete values[name];
              else values[name] = value;
            }
            return values;
          });
  const bodies = operation.body
    ? isForm(operation)
      ? fc.dictionary(fc.string({ maxLength: 20 }), text, { maxKeys: 6 })
      : fc.oneof(
          fc.jsonValue({ maxDepth: 3 }),
          fc.record(
            Object.fromEntries(
              Object.keys(operation.body.schema.properties ?? {}).map((key) => [
                key,
                fc.jsonValue({ maxDepth: 2 }),
              ]),
            ),
            { requiredKeys: [] },
          ),
        )
    : fc.constant(undefined);
  return fc
    .record({
      pathParams: parameterValues(operation.pathParams, valid.pathParams),
      query: parameterValues(operation.query, valid.query),
      body: bodies,
    })
    .filter((input) => !Object.values(input.pathParams).includes(''));
}
