import type { InvoiceStatus } from '@tunes/shared/premium-rules';

/** The shapes of docs/console-api.md §4. */
export interface UserSummary {
  id: string;
  msisdn: string | null;
  email: string | null;
  firstName: string | null;
  lastName: string | null;
  createdAt: string;
  deleted: boolean;
}

export interface SubscriptionView {
  id: string;
  packageCode: string;
  packageName: string;
  status: 'active' | 'ended' | 'cancelled';
  startDate: string;
  endDate: string;
  autoRenew: boolean;
  role: 'owner' | 'member';
}

export interface PaymentView {
  invoiceId: string;
  createdAt: string;
  paidAt: string | null;
  amount: number;
  currency: string;
  packageName: string;
  method: 'card' | 'qpay' | 'voucher';
  kind: string;
  status: InvoiceStatus;
  /** Given back so far; `refundedAt` is the last refund's time. */
  refunded: number;
  refundedAt: string | null;
  receiptUrl: string | null;
}

export interface MessageView {
  channel: 'sms' | 'email';
  to: string;
  text: string;
  createdAt: string;
}

export interface UserDetail {
  user: UserSummary & { language: string };
  subscriptions: SubscriptionView[];
  /** Shared plans the listener owns (members may be none yet) or has joined; `seats` for members. */
  family: { subscriptionId: string; owner: UserSummary; members: UserSummary[]; seats: number }[];
  payments: PaymentView[];
  messages: MessageView[];
  activeSessions: number;
}
