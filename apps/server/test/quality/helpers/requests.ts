import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { STORE } from '../../helpers/factories.js';
import type { RequestInput } from './inputs.js';
import { validSample } from './inputs.js';
import { fillPath, type Operation } from './openapi.js';
import { type World, worldValue } from './world.js';

/** A request the schema accepts, aimed at the world's real owner, subscription and member. */
export function validInput(operation: Operation, world: World): RequestInput {
  const pathParams: Record<string, string> = {};
  for (const parameter of operation.pathParams) {
    pathParams[parameter.name] =
      worldValue(world, operation, parameter) ?? String(validSample(parameter.schema, parameter.name));
  }
  const query: Record<string, string> = {};
  for (const parameter of operation.query) {
    if (parameter.required) {
      query[parameter.name] =
        worldValue(world, operation, parameter) ?? String(validSample(parameter.schema, parameter.name));
    }
  }
  return {
    pathParams,
    query,
    body: operation.body ? validSample(operation.body.schema) : undefined,
  };
}

function url(operation: Operation, input: RequestInput): string {
  const search = new URLSearchParams(Object.entries(input.query)).toString();
  return `${fillPath(operation.path, input.pathParams)}${search ? `?${search}` : ''}`;
}

/** Sends an operation with structured input: JSON, or form-encoded when the operation takes a form. */
export function send(
  app: FastifyInstance,
  operation: Operation,
  input: RequestInput,
  headers: Record<string, string>,
): Promise<LightMyRequestResponse> {
  const form = operation.body?.contentType.includes('form') === true;
  let payload: string | undefined;
  let contentType: string | undefined;
  if (input.body !== undefined) {
    if (form && input.body && typeof input.body === 'object') {
      payload = new URLSearchParams(
        Object.entries(input.body).map(([key, value]): [string, string] => [
          key,
          typeof value === 'string' ? value : JSON.stringify(value),
        ]),
      ).toString();
      contentType = 'application/x-www-form-urlencoded';
    } else {
      payload = JSON.stringify(input.body);
      contentType = 'application/json';
    }
  }
  return sendRaw(app, operation, input, headers, payload, contentType);
}

/** Sends an exact payload with an exact content type (for broken JSON and wrong media types). */
export function sendRaw(
  app: FastifyInstance,
  operation: Operation,
  input: RequestInput,
  headers: Record<string, string>,
  payload: string | undefined,
  contentType: string | undefined,
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: operation.method,
    url: url(operation, input),
    headers: { ...STORE, ...headers, ...(contentType ? { 'content-type': contentType } : {}) },
    ...(payload !== undefined ? { payload } : {}),
  });
}

/**
 * What is wrong with an answer to bad input, or undefined when it is right: a 4xx whose body is
 * the one error shape `{ error, message }` (api.md).
 */
export function refusalProblem(response: LightMyRequestResponse): string | undefined {
  if (response.statusCode >= 500)
    return `server error ${response.statusCode}: ${response.body.slice(0, 200)}`;
  if (response.statusCode < 400)
    return `accepted with ${response.statusCode}: ${response.body.slice(0, 200)}`;
  return errorShapeProblem(response);
}

/** undefined when the body is `{ error: string, message: string, … }`. */
export function errorShapeProblem(response: LightMyRequestResponse): string | undefined {
  let body: unknown;
  try {
    body = response.json();
  } catch {
    return `status ${response.statusCode} without a JSON body: ${response.body.slice(0, 120)}`;
  }
  const shaped = body as { error?: unknown; message?: unknown };
  if (typeof shaped?.error !== 'string' || typeof shaped.message !== 'string') {
    return `status ${response.statusCode} not in the error shape: ${response.body.slice(0, 200)}`;
  }
  return undefined;
}
