import type { Config } from '../../config.js';
import type { Clock } from '../../lib/clock.js';
import { httpPaymentGateway, type PaymentGateway } from './card-gateway.js';
import { type EbarimtGateway, httpEbarimtGateway } from './posapi.js';
import { httpQpayGateway, type QpayGateway } from './qpay-gateway.js';
import type { JsonCall } from './transport.js';

/** The outside services payments speak to, one adapter each (Deps holds them, built once per process). */
export interface Providers {
  /** The card gateway of product.md §10 (PAYMENT_PROVIDER_URL and its credentials). */
  paymentGateway: PaymentGateway;
  /** QPay merchant API v2 (QPAY_*); one per process, so its access token is shared. */
  qpay: QpayGateway;
  /** The tax authority's PosAPI (EBARIMT_*): e-barimt receipts. */
  ebarimt: EbarimtGateway;
}

/** The adapters as configured, calling through `call` (the deps' transport, or a test's recorder). */
export function createProviders(
  { config, clock }: { config: Config; clock: Clock },
  call: JsonCall,
): Providers {
  return {
    paymentGateway: httpPaymentGateway({
      baseUrl: config.PAYMENT_PROVIDER_URL,
      clientId: config.PAYMENT_CLIENT_ID,
      clientSecret: config.PAYMENT_CLIENT_SECRET,
      post: (url, body, headers = {}) => call({ method: 'POST', url, body, headers }),
    }),
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
