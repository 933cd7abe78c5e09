/**
 * The stable machine codes of `error` in every API error body (api.md). Kept apart from the
 * schemas in `errors.ts` so the site's API client can map them without loading zod.
 */
export const ERROR_CODES = {
  badRequest: 'bad_request',
  unauthorized: 'unauthorized',
  forbidden: 'forbidden',
  notFound: 'not_found',
  conflict: 'conflict',
  tooManyRequests: 'too_many_requests',
  payloadTooLarge: 'payload_too_large',
  unsupportedMediaType: 'unsupported_media_type',
  unavailable: 'service_unavailable',
  internal: 'internal_error',
} as const;

/** The codes any call may answer, by status; the site has a text for each (lib/api-error.ts). */
export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];

/**
 * Every `error` code the API answers (api.md, docs/console-api.md): the shared ones above and
 * each call's own. The server raises only these (`AppError` takes an `ApiErrorCode`); the site
 * compares with these constants, never with a literal. The values are the wire contract: never
 * change one, add a new one. The features' groups (`GRANT_ERRORS`, `VOUCHER_ERRORS`, …) name
 * their codes from here.
 */
export const API_ERROR_CODES = {
  ...ERROR_CODES,

  // Refused before a route runs (plugins/framework-errors.ts).
  uriTooLong: 'uri_too_long',
  headersTooLarge: 'headers_too_large',
  requestTimeout: 'request_timeout',

  // Accounts: sign-in (the token grant, product.md §8), codes, password, e-mail and phone.
  grantNotRegistered: '604',
  grantCannotAuthenticate: '603',
  grantWrongCode: '403',
  invalidGrant: 'invalid_grant',
  unsupportedGrantType: 'unsupported_grant_type',
  codeLocked: 'code_locked',
  invalidCode: 'invalid_code',
  wrongPassword: 'wrong_password',
  passwordExists: 'password_exists',
  noPendingChange: 'no_pending_change',
  emailInUse: 'email_in_use',
  phoneInUse: 'phone_in_use',

  // Premium: checkout, QPay, the gateway's callback, e-barimt.
  alreadySubscribed: 'already_subscribed',
  paymentGatewayError: 'payment_gateway_error',
  paymentsUnavailable: 'payments_unavailable',
  qpayUnavailable: 'qpay_unavailable',
  invoiceClosed: 'invoice_closed',
  invalidSignature: 'invalid_signature',
  unknownCompany: 'unknown_company',
  companyReceiptExists: 'company_receipt_exists',
  ebarimtUnavailable: 'ebarimt_unavailable',

  // Billing: renewal, plan change, pay now, the card on file.
  nothingToPay: 'nothing_to_pay',
  planEnded: 'plan_ended',
  planNotRenewable: 'plan_not_renewable',
  planNotChangeable: 'plan_not_changeable',
  changeRefunded: 'change_refunded',
  noCard: 'no_card',
  planNotPausable: 'plan_not_pausable',
  notRenewing: 'not_renewing',
  renewalPending: 'renewal_pending',
  needsCard: 'needs_card',
  alreadyPaused: 'already_paused',
  notPaused: 'not_paused',

  // First-time trials (docs/decisions/0045-trials.md).
  trialNotEligible: 'trial_not_eligible',
  trialCardUsed: 'trial_card_used',
  /** A pause asked for in a trial's free days (nothing paid to pause: cancel to pay nothing). */
  trialNotPausable: 'trial_not_pausable',

  // Family and vouchers.
  invitationInvalid: 'invitation_invalid',
  ownerCannotLeave: 'owner_cannot_leave',
  noSeatsLeft: 'no_seats_left',
  planNotShared: 'plan_not_shared',
  voucherInvalid: 'voucher_invalid',

  // The operator console (docs/console-api.md).
  csrfHeaderMissing: 'csrf_header_missing',
  invalidCredentials: 'invalid_credentials',
  setupLinkInvalid: 'setup_link_invalid',
  invalidTotp: 'invalid_totp',
  operatorExists: 'operator_exists',
  cannotChangeSelf: 'cannot_change_self',
  extensionCap: 'extension_cap',
  tooManyCards: 'too_many_cards',
  noAddress: 'no_address',
  notPaid: 'not_paid',
  alreadyRefunded: 'already_refunded',
  refundInProgress: 'refund_in_progress',
  refundTooLarge: 'refund_too_large',
  qpayWholeOnly: 'qpay_whole_only',
  notRefundable: 'not_refundable',
  gatewayError: 'gateway_error',
  planExists: 'plan_exists',
  plansChanged: 'plans_changed',
  priceUnchanged: 'price_unchanged',

  // Offers (docs/decisions/0044-offers.md): the public look-up, checkout, the console.
  offerNotFound: 'offer_not_found',
  offerEnded: 'offer_ended',
  offerExhausted: 'offer_exhausted',
  offerNotForYou: 'offer_not_for_you',
  offerCodeTaken: 'offer_code_taken',
} as const;

/** Any code of the catalogue: what the server may put in `error`. */
export type ApiErrorCode = (typeof API_ERROR_CODES)[keyof typeof API_ERROR_CODES];
