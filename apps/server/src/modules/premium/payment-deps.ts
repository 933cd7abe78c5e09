import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.js';
import { httpPaymentGateway, type PaymentGateway } from './gateway.js';
import { type JsonPost, jsonPostFor } from './transport.js';

/**
 * The app's deps plus what only payments use. The gateway adapter is built here rather than in
 * `createDeps` because its calls to this server's own origin (the built-in sandbox) go through
 * the Fastify instance, which does not exist yet when the deps are made.
 */
export interface PaymentDeps extends Deps {
  paymentGateway: PaymentGateway;
  /** Reports what must not fail a payment (a lost log line, a provider hiccup). */
  reportError(error: unknown, message: string): void;
}

/** The gateway adapter of product.md §10, configured by PAYMENT_PROVIDER_URL and its credentials. */
export function configuredPaymentGateway(config: Deps['config'], post: JsonPost): PaymentGateway {
  return httpPaymentGateway({
    baseUrl: config.PAYMENT_PROVIDER_URL,
    clientId: config.PAYMENT_CLIENT_ID,
    clientSecret: config.PAYMENT_CLIENT_SECRET,
    post,
  });
}

/** The payment services' deps for a running app, reporting to the app's log. */
export function paymentDeps(app: FastifyInstance): PaymentDeps {
  return {
    ...app.deps,
    paymentGateway: configuredPaymentGateway(app.deps.config, jsonPostFor(app, app.deps.config.PUBLIC_URL)),
    reportError: (error, message) => app.log.error({ err: error }, message),
  };
}
