import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../../lib/clock.js';
import type { PaymentGateway } from './gateway.js';

/** What the payment functions need; built once by the premium routes plugin. */
export interface PaymentContext {
  db: Kysely<Database>;
  clock: Clock;
  gateway: PaymentGateway;
  /** The site's origin: where the provider sends the shopper and its callbacks. */
  publicUrl: string;
  /** Reports what must not fail a payment (a lost log line, a provider hiccup). */
  reportError(error: unknown, message: string): void;
}
