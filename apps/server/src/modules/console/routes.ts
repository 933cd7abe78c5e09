import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { IMAGE_MAX_BYTES } from '../content/uploads.js';
import consoleBooksRoutes from './books-routes.js';
import { guardConsoleScope } from './guard.js';
import consoleReadinessRoutes from './readiness-routes.js';
import consoleAuditRoutes from './routes/audit.js';
import consoleContentRoutes from './routes/content.js';
import consoleDashboardRoutes from './routes/dashboard.js';
import consoleFeedbackRoutes from './routes/feedback.js';
import consoleOfferRoutes from './routes/offers.js';
import consoleOperatorRoutes from './routes/operators.js';
import consoleReceiptRoutes from './routes/receipts.js';
import consoleRefundRoutes from './routes/refunds.js';
import consoleSessionRoutes from './routes/session.js';
import consoleSupportRoutes from './routes/support.js';
import consoleVoucherRoutes from './routes/vouchers.js';

const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp'];

/**
 * The operator console's API under /api/admin (docs/console-api.md, DESIGN §9): operators sign
 * in with password and TOTP; every route checks the role on the server; listeners get 403.
 * Each section's routes live in routes/; they are registered inside this scope, so the
 * listener-token refusal and the image body parser apply to all of them.
 */
export default async function consoleRoutes(app: FastifyInstance, options: ConsoleRouteOptions = {}) {
  guardConsoleScope(app);
  app.addContentTypeParser(
    IMAGE_TYPES,
    { parseAs: 'buffer', bodyLimit: IMAGE_MAX_BYTES },
    (_request, body, done) => done(null, body),
  );
  await app.register(consoleBooksRoutes);
  await app.register(consoleReadinessRoutes);
  await app.register(consoleSessionRoutes);
  await app.register(consoleContentRoutes);
  await app.register(consoleSupportRoutes);
  await app.register(consoleReceiptRoutes);
  await app.register(consoleFeedbackRoutes);
  await app.register(consoleVoucherRoutes);
  await app.register(consoleOfferRoutes);
  await app.register(consoleRefundRoutes);
  await app.register(consoleOperatorRoutes);
  await app.register(consoleDashboardRoutes);
  await app.register(consoleAuditRoutes);
  // Sections of modules that build on the console (catalog's plans): they import the console, not it them.
  for (const section of options.sections ?? []) await app.register(section);
}

export interface ConsoleRouteOptions {
  sections?: FastifyPluginAsync[];
}
