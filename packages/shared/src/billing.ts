import { z } from 'zod';
import { COMPANY_REGISTRY_ERROR, COMPANY_REGISTRY_PATTERN } from './billing-rules.js';
import { billingOfferSchema, offerCodeSchema } from './offers.js';
import { merchantCodeSchema } from './premium.js';
import { INVOICE_STATUSES } from './premium-rules.js';
import { localizedNameSchema } from './profile.js';
import { billingTrialSchema } from './trials.js';

/** How a payment is made (product.md §12): a card through the gateway, or QPay (QR or bank app). */
export const PAYMENT_METHODS = ['card', 'qpay'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

/** What an invoice pays for: the first period, a renewal, or the difference of an upgrade. */
export const INVOICE_KINDS = ['purchase', 'renewal', 'change'] as const;
export type InvoiceKind = (typeof INVOICE_KINDS)[number];

/** Days before a period's end when the reminder (or the renewal link) goes out. */
export const REMINDER_DAYS_BEFORE = 3;
/** Days after the end date when a failed renewal charge is tried again; the lapse follows the last. */
export const RENEWAL_RETRY_DAYS = [1, 3, 5] as const;

/** A Mongolian company's state registry number (7 digits): its e-barimt is a company receipt. */
export const companyRegistrySchema = z
  .string()
  .trim()
  .regex(COMPANY_REGISTRY_PATTERN, COMPANY_REGISTRY_ERROR);

/** `POST /api/payments/checkout` (product.md §12): the plan, the method, and whether to keep the card. */
export const checkoutRequestSchema = z
  .object({
    MerchantCode: merchantCodeSchema,
    method: z.enum(PAYMENT_METHODS).optional(),
    /** Keep the card for renewals (the gateway's token, never the card). Default: on. */
    saveCard: z.boolean().optional(),
    /** Issue the e-barimt to this company instead of to a citizen. */
    ebarimtRegistry: companyRegistrySchema.optional(),
    /** An offer's code (offers.ts): the invoice is its discounted price. */
    OfferCode: offerCodeSchema.optional(),
  })
  .strict();

export type CheckoutRequest = z.infer<typeof checkoutRequestSchema>;

/** The card on file, as the gateway describes it. */
export const savedCardSchema = z
  .object({
    brand: z.string(),
    last4: z.string(),
    expires: z.string().nullable().describe('MM/YY'),
    savedAt: z.string(),
  })
  .describe('SavedCard');
export type SavedCard = z.infer<typeof savedCardSchema>;

/** A plan change waiting for the next renewal (a downgrade). */
export const pendingChangeSchema = z.object({
  MerchantCode: z.string(),
  Name: z.array(localizedNameSchema),
  startsAt: z.string(),
  /** Members who lose their seat at that date, newest first. */
  membersLosingSeat: z.number().int(),
});

/** `GET /api/users/me/billing`: what the profile shows about the next charge. */
export const billingSchema = z
  .object({
    card: savedCardSchema.nullable(),
    renewal: z
      .object({
        subscriptionId: z.string(),
        MerchantCode: z.string(),
        Name: z.array(localizedNameSchema),
        autoRenew: z.boolean(),
        /** When the next charge (or renewal link) is due; null when auto-renew is off. */
        nextChargeAt: z.string().nullable(),
        amount: z.number().int(),
        currency: z.string(),
        /** `card`: the saved card is charged; `link`: a payment link is sent before the end. */
        renewsBy: z.enum(['card', 'link']),
        endDate: z.string(),
        pendingChange: pendingChangeSchema.nullable(),
        /** A price rise with notice: from the renewal on `from`, the plan costs `amount` (now `previousAmount`). */
        priceChange: z
          .object({ amount: z.number().int(), previousAmount: z.number().int(), from: z.string() })
          .nullable(),
        /** A renewal charge failed: access lasts to `accessUntil` while it is tried again. */
        failedRenewal: z
          .object({
            invoiceId: z.string(),
            attempts: z.number().int(),
            nextAttemptAt: z.string().nullable(),
            accessUntil: z.string(),
          })
          .nullable(),
      })
      .nullable(),
    /** The offer the plan renews with (offers.ts), while it has one. */
    offer: billingOfferSchema.nullable().optional(),
    /** A first-time trial running (trials.ts): its end, the first charge after it, how it renews. */
    trial: billingTrialSchema.optional(),
  })
  .describe('Billing');
export type Billing = z.infer<typeof billingSchema>;

/** `POST /api/subscriptions/{id}/change`. */
export const planChangeRequestSchema = z.object({ MerchantCode: merchantCodeSchema }).strict();
export const planChangeResponseSchema = z
  .discriminatedUnion('status', [
    /** An upgrade paid with the saved card: the new plan holds from now. */
    z.object({ status: z.literal('changed'), invoiceId: z.string(), amount: z.number().int() }),
    /** A downgrade: the new plan starts at the next renewal. */
    z.object({ status: z.literal('scheduled'), startsAt: z.string() }),
    /** An upgrade without a saved card (or a declined one): pay the difference on the gateway page. */
    z.object({
      status: z.literal('payment_required'),
      url: z.string(),
      invoiceId: z.string(),
      amount: z.number().int(),
    }),
  ])
  .describe('PlanChange');
export type PlanChangeResponse = z.infer<typeof planChangeResponseSchema>;

/** `GET /api/subscriptions/{id}/plan-change/preview?plan=…`: what confirming a change would do. */
export const planChangePreviewQuerySchema = z.object({ plan: merchantCodeSchema });
export const planChangePreviewSchema = z
  .object({
    /** `upgrade` starts now and charges `amount`; `downgrade` and `keep` (withdraw a waiting downgrade) charge 0. */
    kind: z.enum(['upgrade', 'downgrade', 'keep']),
    /** Whole units of `currency` charged at once when the change is confirmed now. */
    amount: z.number().int().min(0),
    currency: z.string(),
    /** When the new plan starts (ISO 8601): now for an upgrade, the renewal for a downgrade. */
    startsAt: z.string(),
  })
  .describe('PlanChangePreview');
export type PlanChangePreview = z.infer<typeof planChangePreviewSchema>;

/** `POST /api/subscriptions/{id}/pay-now`: the gateway page for an unpaid renewal. */
export const payNowResponseSchema = z.object({ url: z.string(), invoiceId: z.string() }).describe('PayNow');

/** One of QPay's bank-app links (a deep link on a phone). */
export const qpayDeeplinkSchema = z.object({
  name: z.string(),
  description: z.string(),
  logo: z.string(),
  link: z.string(),
});
export type QpayDeeplink = z.infer<typeof qpayDeeplinkSchema>;

/** A QPay payment of an invoice: the QR a computer shows, the bank-app links a phone shows. */
export const qpayCheckoutSchema = z
  .object({
    invoiceId: z.string(),
    method: z.literal('qpay'),
    qrImage: z.string().describe('the QR as a base64 PNG (no data: prefix), as QPay answers it'),
    qrText: z.string(),
    shortUrl: z.string(),
    deeplinks: z.array(qpayDeeplinkSchema),
    amount: z.number().int(),
    currency: z.string(),
  })
  .describe('QpayCheckout');
export type QpayCheckout = z.infer<typeof qpayCheckoutSchema>;

/** What a shopper waiting on a payment sees (`GET /api/payments/{invoiceId}`). */
export const PAYMENT_STATUSES = ['pending', 'paid', 'failed', 'expired'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];
export const paymentStatusSchema = z
  .object({
    status: z.enum(PAYMENT_STATUSES),
    /** A pending QPay invoice paid in part (QPay's PARTIAL): what was taken; the invoice stays open. */
    partlyPaid: z.object({ amount: z.number().int().positive(), currency: z.string() }).optional(),
  })
  .describe('PaymentStatus');
export type PaymentStatusAnswer = z.infer<typeof paymentStatusSchema>;

/** `POST /api/payments/{invoiceId}/pay`: pay an open invoice (a renewal link, a reloaded QPay page). */
export const payInvoiceRequestSchema = z.object({ method: z.enum(PAYMENT_METHODS) }).strict();
export const cardPaymentPageSchema = z
  .object({ method: z.literal('card'), url: z.string(), invoiceId: z.string() })
  .describe('CardPaymentPage');
export const payInvoiceResponseSchema = z.discriminatedUnion('method', [
  cardPaymentPageSchema,
  qpayCheckoutSchema,
]);
export type PayInvoiceResponse = z.infer<typeof payInvoiceResponseSchema>;

/** A company as the tax authority names it. */
export const companySchema = z.object({ registry: z.string(), name: z.string() }).describe('Company');
export type Company = z.infer<typeof companySchema>;
export const companyRegistryParamsSchema = z.object({ registry: companyRegistrySchema });
export const companyReceiptRequestSchema = z.object({ registry: companyRegistrySchema }).strict();

/** The VAT e-receipt (e-barimt) of a paid invoice; a company receipt has no lottery number. */
export const ebarimtSchema = z
  .object({
    billId: z.string(),
    lottery: z.string().nullable(),
    qrData: z.string(),
    company: companySchema.nullable(),
  })
  .describe('Ebarimt');
export type Ebarimt = z.infer<typeof ebarimtSchema>;
/**
 * The e-barimt as the payment history names it: no lottery number or QR data, which PosAPI 3.0
 * lets a merchant keep only to print on the receipt itself (decision 0033).
 */
export const ebarimtSummarySchema = ebarimtSchema
  .pick({ billId: true, company: true })
  .describe('EbarimtSummary');
export type EbarimtSummary = z.infer<typeof ebarimtSummarySchema>;
/** Whether a company receipt was asked for: `none`, being issued, or issued. */
export const COMPANY_RECEIPT_STATES = ['none', 'pending', 'issued'] as const;

/** One entry of `GET /api/users/me/payments` (product.md §12), newest first. */
export const paymentEntrySchema = z
  .object({
    invoiceId: z.string(),
    createdAt: z.string(),
    paidAt: z.string().nullable(),
    amount: z.number().int(),
    currency: z.string(),
    packageName: z.array(localizedNameSchema),
    method: z.enum(PAYMENT_METHODS),
    kind: z.enum(INVOICE_KINDS),
    status: z.enum(INVOICE_STATUSES),
    receipt: z.object({ url: z.string(), ebarimt: ebarimtSummarySchema.nullable() }).nullable(),
  })
  .describe('Payment');
export type PaymentEntry = z.infer<typeof paymentEntrySchema>;
export const paymentHistorySchema = z.array(paymentEntrySchema);

/** `GET /api/users/me/receipts/{invoiceId}`: what the printable receipt shows. */
export const receiptSchema = paymentEntrySchema
  .extend({
    /** The printable receipt is the one place that shows the lottery number and QR data. */
    receipt: z.object({ url: z.string(), ebarimt: ebarimtSchema.nullable() }).nullable(),
    buyer: z.object({ name: z.string(), phone: z.string().nullable(), email: z.string().nullable() }),
    seller: z.object({ name: z.string(), registry: z.string() }),
    period: z.object({ start: z.string(), end: z.string() }).nullable(),
    card: z.object({ brand: z.string(), last4: z.string() }).nullable(),
    /** The VAT included in the amount (10 % in Mongolia). */
    vat: z.number().int(),
    /** An offer's discount off the plan's price (decision 0044); 0 without one. The plan's price is amount + discount. */
    discount: z.number().int(),
    /** The e-barimt's QR as a PNG data URL, when the e-barimt is issued. */
    ebarimtQr: z.string().nullable(),
    companyReceipt: z.object({
      status: z.enum(COMPANY_RECEIPT_STATES),
      company: companySchema.nullable(),
    }),
  })
  .describe('Receipt');
export type Receipt = z.infer<typeof receiptSchema>;

/** `POST /dev/jobs/run-due` (product.md §12). */
export const runDueResponseSchema = z.object({
  ran: z.array(z.object({ name: z.string(), count: z.number().int() })),
});

/** How renewals are paid (product.md §12): the card on file, or a QPay link sent before the end. */
export const RENEWAL_METHODS = ['card', 'qpay'] as const;
export type RenewalMethod = (typeof RENEWAL_METHODS)[number];
/** `PUT /api/users/me/renewal-method`. */
export const renewalMethodRequestSchema = z.object({ method: z.enum(RENEWAL_METHODS) }).strict();
/** `POST /api/users/me/card/replace`: the gateway's save-card page (nothing is charged). */
export const cardReplaceResponseSchema = z.object({ url: z.string() }).describe('CardReplace');
/** Where the save-card page's return leaves the listener: `/profile?card=<outcome>`. */
export const CARD_RETURN_OUTCOMES = ['saved', 'declined', 'cancelled', 'pending'] as const;
export type CardReturnOutcome = (typeof CARD_RETURN_OUTCOMES)[number];

/** Premium paused for 1, 2 or 3 months (YouTube's offer; issue 37). */
export const PAUSE_MONTHS = [1, 2, 3] as const;
/** `POST /api/subscriptions/{id}/pause`. */
export const pauseRequestSchema = z
  .object({ months: z.union([z.literal(1), z.literal(2), z.literal(3)]) })
  .strict();
/** A pause: Premium runs to `startsAt`, then nobody on the plan has it until `resumesAt`, when the card is charged. */
export const pauseSchema = z
  .object({
    subscriptionId: z.string(),
    months: z.number().int(),
    startsAt: z.string(),
    resumesAt: z.string(),
    /** The pause has begun: Premium is off until `resumesAt` (or Resume now). */
    started: z.boolean(),
    /** Members of the owner's plan whose Premium pauses with it. */
    members: z.number().int(),
    amount: z.number().int(),
    currency: z.string(),
  })
  .describe('Pause');
export type Pause = z.infer<typeof pauseSchema>;
/** `GET /api/users/me/pause`: the listener's pause, and whether one may be asked for now. */
export const pauseStateSchema = z
  .object({
    pause: pauseSchema.nullable(),
    /** Why a pause cannot be asked for now (null: it can): a code the site names in words; `trial`: a first-time trial's free days (decision 0045). */
    unavailable: z
      .enum(['no_plan', 'not_renewing', 'needs_card', 'renewal_pending', 'paused', 'trial'])
      .nullable(),
    /** The plan a new pause would apply to, and how many members it holds. */
    subscriptionId: z.string().nullable(),
    endDate: z.string().nullable(),
    members: z.number().int(),
  })
  .describe('PauseState');
export type PauseState = z.infer<typeof pauseStateSchema>;
