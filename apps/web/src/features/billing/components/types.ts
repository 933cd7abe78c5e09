import type { Billing } from '@tunes/shared/billing';

/** What the profile shows about the listener's own plan bought here. */
export type Renewal = NonNullable<Billing['renewal']>;
export type FailedRenewalInfo = NonNullable<Renewal['failedRenewal']>;
export type Card = NonNullable<Billing['card']>;
