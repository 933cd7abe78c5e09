import type { FastifyInstance } from 'fastify';
import type { PaymentDeps } from './payment-deps.js';
import { checkPendingInvoices, lapseUnpaidRenewals } from './settlement.js';

/**
 * The periodic check of product.md §10 in this process: every PAYMENT_CHECK_INTERVAL_SECONDS (0 = off)
 * from ready to close, settles invoices whose shopper never came back, then lapses unpaid card
 * renewals. A round still running when the next is due is not doubled.
 */
export function startPaymentCheckJob(app: FastifyInstance, deps: PaymentDeps): void {
  const intervalSeconds = deps.config.PAYMENT_CHECK_INTERVAL_SECONDS;
  if (intervalSeconds <= 0) return;
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let closed = false;
  const check = () => {
    if (running) return;
    running = true;
    checkPendingInvoices(deps)
      .then(() => lapseUnpaidRenewals(deps))
      .catch((error: unknown) => deps.reportError(error, 'periodic payment check failed'))
      .finally(() => {
        running = false;
      });
  };
  app.addHook('onReady', async () => {
    // The database may still be migrating on a first start; the checks begin once it is ready.
    deps.databaseReady.then(
      () => {
        if (closed) return;
        timer = setInterval(check, intervalSeconds * 1000);
        timer.unref();
      },
      () => {},
    );
  });
  app.addHook('onClose', async () => {
    closed = true;
    clearInterval(timer);
  });
}
