import { type Attributes, context, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';

/**
 * Child spans of the traced request in force: database statements (`db/query-spans.ts`) and
 * provider calls (`modules/providers/transport.ts`). Outside a traced request (tracing off, a
 * background job) the work runs as it is, after one look at the active context; the request's
 * span is made active by `plugins/tracing.ts`.
 */
const tracer = trace.getTracer('tunes');

export { SpanKind };

export interface ChildSpan<T> {
  name: string;
  kind: SpanKind;
  attributes: Attributes;
  /** Attributes read from the result (a status code, a row count). */
  resultAttributes?: (result: T) => Attributes;
}

/** Whether a traced request is in force (else a child span is not even described). */
export function inTracedRequest(): boolean {
  return trace.getSpan(context.active()) !== undefined;
}

export function inChildSpan<T>(span: ChildSpan<T>, work: () => Promise<T>): Promise<T> {
  if (!inTracedRequest()) return work();
  return tracer.startActiveSpan(
    span.name,
    { kind: span.kind, attributes: span.attributes },
    async (child: Span) => {
      try {
        const result = await work();
        if (span.resultAttributes) child.setAttributes(span.resultAttributes(result));
        return result;
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        child.setStatus({ code: SpanStatusCode.ERROR, message: message.slice(0, 300) });
        child.setAttribute('error.type', error instanceof Error ? error.name : 'Error');
        throw error;
      } finally {
        child.end();
      }
    },
  );
}
