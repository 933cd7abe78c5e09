import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.js';
import { type EbarimtGateway, httpEbarimtGateway } from '../ebarimt/posapi.js';
import { httpPaymentGateway, type PaymentGateway } from './gateway.js';
import { httpQpayGateway, type QpayGateway } from './qpay-gateway.js';
import { type JsonCall, type JsonPost, jsonCallFor } from './transport.js';

/**
 * The app's deps plus what only payments use. The adapters are built here rather than in
 * `createDeps` because their calls to this server's own origin (the built-in sandboxes) go
 * through the Fastify instance, which does not exist yet when the deps are made.
 */
export interface PaymentDeps extends Deps {
  paymentGateway: PaymentGateway;
  /** QPay merchant API v2; one per process, so its access token is shared (paymentDeps). */
  qpay: QpayGateway;
  /** The tax authority's PosAPI (e-barimt receipts). */
  ebarimt: EbarimtGateway;
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

/** The QPay and e-barimt adapters, configured by QPAY_* and EBARIMT_*. */
export function configuredProviders(
  { config, clock }: Pick<Deps, 'config' | 'clock'>,
  call: JsonCall,
): Pick<PaymentDeps, 'qpay' | 'ebarimt'> {
  return {
    qpay: httpQpayGateway({
      baseUrl: config.QPAY_URL,
      clientId: config.QPAY_CLIENT_ID,
      clientSecret: config.QPAY_CLIENT_SECRET,
      invoiceCode: config.QPAY_INVOICE_CODE,
      receiverCode: config.QPAY_RECEIVER_CODE,
      call,
      clock,
    }),
    ebarimt: httpEbarimtGateway({
      baseUrl: config.EBARIMT_URL,
      infoUrl: config.EBARIMT_INFO_URL,
      merchantTin: config.EBARIMT_MERCHANT_TIN,
      branchNo: config.EBARIMT_BRANCH_NO,
      posNo: config.EBARIMT_POS_NO,
      districtCode: config.EBARIMT_DISTRICT_CODE,
      classificationCode: config.EBARIMT_CLASSIFICATION_CODE,
      call,
    }),
  };
}

/** One set per app (keyed by its deps), so every module shares one QPay token. */
const built = new WeakMap<Deps, PaymentDeps>();

/** The payment services' deps for a running app, reporting to the app's log. */
export function paymentDeps(app: FastifyInstance): PaymentDeps {
  const found = built.get(app.deps);
  if (found) return found;
  const call = jsonCallFor(app, app.deps.config.PUBLIC_URL);
  const deps: PaymentDeps = {
    ...app.deps,
    paymentGateway: configuredPaymentGateway(app.deps.config, (url, body, headers = {}) =>
      call({ method: 'POST', url, body, headers }),
    ),
    ...configuredProviders(app.deps, call),
    reportError: (error, message) => app.log.error({ err: error }, message),
  };
  built.set(app.deps, deps);
  return deps;
}
