import type { FastifyInstance } from 'fastify';

/** The subset of JSON Schema the generated OpenAPI document uses. */
export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number | boolean;
  exclusiveMaximum?: number | boolean;
  enum?: unknown[];
  const?: unknown;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  nullable?: boolean;
  default?: unknown;
  [keyword: string]: unknown;
}

export interface Parameter {
  name: string;
  required: boolean;
  schema: JsonSchema;
}

export interface RequestBody {
  contentType: string;
  required: boolean;
  schema: JsonSchema;
}

/** One API call as the OpenAPI document describes it. */
export interface Operation {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The OpenAPI path template, e.g. `/api/subscription/{id}/invitation-codes/`. */
  path: string;
  pathParams: Parameter[];
  query: Parameter[];
  body?: RequestBody;
  /** The document itself declares that a bearer token is needed. */
  declaresSecurity: boolean;
  /** `GET /api/health`, for test names. */
  label: string;
}

interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, JsonSchema> };
  security?: unknown[];
}

interface OpenApiOperation {
  parameters?: { name: string; in: string; required?: boolean; schema?: JsonSchema }[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: JsonSchema }> };
  security?: unknown[];
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
/** Order that keeps reads before writes and removals last, so one run's writes do not hide the next. */
const METHOD_ORDER: Operation['method'][] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** Inlines `#/components/schemas/…` references (the document may name shared schemas). */
function dereference(schema: JsonSchema | undefined, document: OpenApiDocument, depth = 0): JsonSchema {
  if (!schema || depth > 20) return {};
  if (schema.$ref) {
    const name = schema.$ref.replace('#/components/schemas/', '');
    return dereference(document.components?.schemas?.[name], document, depth + 1);
  }
  const resolved: JsonSchema = { ...schema };
  // OpenAPI 3.0 spellings, rewritten to the JSON Schema that Ajv reads.
  if (typeof schema.exclusiveMinimum === 'boolean') {
    if (schema.exclusiveMinimum && typeof schema.minimum === 'number')
      resolved.exclusiveMinimum = schema.minimum;
    else delete resolved.exclusiveMinimum;
    if (schema.exclusiveMinimum) delete resolved.minimum;
  }
  if (typeof schema.exclusiveMaximum === 'boolean') {
    if (schema.exclusiveMaximum && typeof schema.maximum === 'number')
      resolved.exclusiveMaximum = schema.maximum;
    else delete resolved.exclusiveMaximum;
    if (schema.exclusiveMaximum) delete resolved.maximum;
  }
  if (schema.nullable === true && typeof schema.type === 'string') resolved.type = [schema.type, 'null'];
  delete resolved.nullable;
  if (schema.items) resolved.items = dereference(schema.items, document, depth + 1);
  if (schema.properties) {
    resolved.properties = Object.fromEntries(
      Object.entries(schema.properties).map(([key, value]) => [key, dereference(value, document, depth + 1)]),
    );
  }
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const list = schema[key];
    if (list) resolved[key] = list.map((entry) => dereference(entry, document, depth + 1));
  }
  if (typeof schema.additionalProperties === 'object') {
    resolved.additionalProperties = dereference(schema.additionalProperties, document, depth + 1);
  }
  return resolved;
}

/**
 * Every `/api` operation of the running app, read from its own OpenAPI document, so the suites
 * cover each endpoint as soon as a module registers it. The docs UI itself is left out.
 */
export async function listApiOperations(app: FastifyInstance): Promise<Operation[]> {
  const response = await app.inject({ method: 'GET', url: '/api/docs/json' });
  if (response.statusCode !== 200) throw new Error(`OpenAPI document answered ${response.statusCode}`);
  const document = response.json() as OpenApiDocument;
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    if (!path.startsWith('/api/') || path.startsWith('/api/docs')) continue;
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const parameters = operation.parameters ?? [];
      const toParameter = (parameter: (typeof parameters)[number]): Parameter => ({
        name: parameter.name,
        required: parameter.in === 'path' || parameter.required === true,
        schema: dereference(parameter.schema, document),
      });
      const content = operation.requestBody?.content ?? {};
      const contentType = Object.keys(content)[0];
      operations.push({
        method: method.toUpperCase() as Operation['method'],
        path,
        pathParams: parameters.filter((parameter) => parameter.in === 'path').map(toParameter),
        query: parameters.filter((parameter) => parameter.in === 'query').map(toParameter),
        body: contentType
          ? {
              contentType,
              required: operation.requestBody?.required === true,
              schema: dereference(content[contentType]?.schema, document),
            }
          : undefined,
        declaresSecurity: Boolean(operation.security?.length ?? document.security?.length),
        label: `${method.toUpperCase()} ${path}`,
      });
    }
  }
  return operations.sort(
    (a, b) => METHOD_ORDER.indexOf(a.method) - METHOD_ORDER.indexOf(b.method) || a.path.localeCompare(b.path),
  );
}

/** The concrete URL of an operation: each `{name}` replaced by its (URL-encoded) value. */
export function fillPath(path: string, values: Record<string, string>): string {
  return path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(values[name] ?? ''));
}
