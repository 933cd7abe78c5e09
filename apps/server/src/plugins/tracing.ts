import { context, propagation, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyRequest {
    span?: Span;
  }
}

/**
 * OpenTelemetry traces when `OTEL_EXPORTER_OTLP_ENDPOINT` is set (docs/operations.md): one server
 * span per request, named by its route pattern, continuing a caller's `traceparent`, with a child
 * span per database statement and provider call made for it (lib/spans.ts), sent over
 * OTLP/HTTP (JSON) to `${OTEL_EXPORTER_OTLP_ENDPOINT}/v1/traces`. Without the variable no hook is
 * added to the request path.
 */
export const tracing = fp(
  async (app: FastifyInstance) => {
    const { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_SERVICE_NAME: serviceName } = app.deps.config;
    if (!endpoint) return;
    const exporter = new OTLPTraceExporter({ url: `${endpoint.replace(/\/$/, '')}/v1/traces` });
    const provider = new NodeTracerProvider({
      resource: resourceFromAttributes({ 'service.name': serviceName }),
      spanProcessors: [new BatchSpanProcessor(exporter, { scheduledDelayMillis: 500 })],
    });
    provider.register({ propagator: new W3CTraceContextPropagator() });
    const tracer = trace.getTracer('tunes');

    app.addHook('onRequest', (request, _reply, done) => {
      const parent = propagation.extract(context.active(), request.headers);
      const span = tracer.startSpan(
        `${request.method} ${request.routeOptions.url ?? 'unmatched'}`,
        {
          kind: SpanKind.SERVER,
          attributes: {
            'http.request.method': request.method,
            'http.route': request.routeOptions.url ?? 'unmatched',
            'tunes.request_id': String(request.id),
          },
        },
        parent,
      );
      request.span = span;
      // The request's span is the parent of what its handling does (database statements,
      // provider calls: lib/spans.ts): the rest of the hooks and the handler run in its context,
      // and so do the body's stream events, which come from the socket, not from this call.
      const active = trace.setSpan(parent, span);
      context.bind(active, request.raw);
      context.with(active, done);
    });
    app.addHook('onResponse', async (request, reply) => {
      const span = request.span;
      if (!span) return;
      span.setAttribute('http.response.status_code', reply.statusCode);
      if (reply.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    });
    app.addHook('onClose', async () => {
      await provider.shutdown();
    });
  },
  { name: 'tracing', dependencies: ['deps'] },
);
