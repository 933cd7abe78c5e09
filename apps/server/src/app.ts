import formbody from '@fastify/formbody';
import Fastify, { type FastifyInstance, type FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Deps } from './deps.js';
import { loggerOptions, OneLinePerRequest, requestIdOf } from './lib/logging.js';
import accountsDevRoutes from './modules/accounts/dev-routes.js';
import passwordSetRoutes from './modules/accounts/password-set-routes.js';
import profileRoutes from './modules/accounts/profile-routes.js';
import accountRoutes from './modules/accounts/routes.js';
import selfServiceRoutes from './modules/accounts/self-service-routes.js';
import tokenRoutes from './modules/accounts/token-routes.js';
import cardRoutes from './modules/billing/card-routes.js';
import billingDevRoutes from './modules/billing/dev-routes.js';
import pauseRoutes from './modules/billing/pause-routes.js';
import billingRoutes from './modules/billing/routes.js';
import consolePlanRoutes from './modules/catalog/plans-admin-routes.js';
import consoleDevRoutes from './modules/console/dev-routes.js';
import consoleRoutes from './modules/console/routes.js';
import contentDevRoutes from './modules/content/dev-routes.js';
import contentRoutes from './modules/content/routes.js';
import clockDevRoutes from './modules/dev-tools/clock-routes.js';
import ebarimtRoutes from './modules/ebarimt/routes.js';
import familyDevRoutes from './modules/family/dev-routes.js';
import familyRoutes from './modules/family/routes.js';
import healthRoutes from './modules/health/routes.js';
import outboxDevRoutes from './modules/notifications/dev-routes.js';
import offerRoutes from './modules/offers/routes.js';
import premiumDevRoutes from './modules/premium/dev-routes.js';
import premiumRoutes from './modules/premium/routes.js';
import trialRoutes from './modules/trials/routes.js';
import voucherDevRoutes from './modules/vouchers/dev-routes.js';
import voucherRoutes from './modules/vouchers/routes.js';
import { auth } from './plugins/auth.js';
import { waitForDatabase } from './plugins/database-ready.js';
import { errorHandler } from './plugins/error-handler.js';
import { frameworkErrorOptions } from './plugins/framework-errors.js';
import { jobs } from './plugins/jobs.js';
import { metrics } from './plugins/metrics.js';
import { openapi } from './plugins/openapi.js';
import { security, securityHeadersFor } from './plugins/security.js';
import { textGuard } from './plugins/text-guard.js';
import { tracing } from './plugins/tracing.js';
import { webApp } from './plugins/web-app.js';
import { loadSandboxes } from './sandboxes.js';

/** Routes of each module under /dev (development only): outbox, test helpers. */
const devPlugins: FastifyPluginAsync[] = [
  clockDevRoutes,
  outboxDevRoutes,
  accountsDevRoutes,
  familyDevRoutes,
  voucherDevRoutes,
  contentDevRoutes,
  premiumDevRoutes,
  billingDevRoutes,
  consoleDevRoutes,
];

export interface AppOptions {
  /** Log at this level; tests pass 'silent'. Defaults to the configured LOG_LEVEL. */
  logLevel?: string;
  /** Mount the built-in sandboxes (outside production only, where they are by default). */
  sandboxes?: boolean;
}

/**
 * The whole HTTP application as one Fastify instance: outside plugins first, then our
 * plugins, then the API modules, then the site. `server.ts` only launches it.
 */
export async function buildApp(deps: Deps, options: AppOptions = {}): Promise<FastifyInstance> {
  const securityHeaders = securityHeadersFor(deps.config.isProduction);
  const requestLog = new OneLinePerRequest();
  const app = Fastify({
    ...frameworkErrorOptions(securityHeaders),
    logger: loggerOptions(options.logLevel ?? deps.config.LOG_LEVEL, deps.config.LOG_FORMAT),
    logController: requestLog,
    // X-Forwarded-For (and -Proto) only from the listed proxies (TRUST_PROXY); nobody when empty.
    trustProxy: deps.config.TRUST_PROXY.length > 0 ? deps.config.TRUST_PROXY : false,
    bodyLimit: 64 * 1024,
    genReqId: (request) => requestIdOf(request.headers),
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
  });

  requestLog.useLogger(app.log);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('deps', deps);
  await app.register(fp(async () => {}, { name: 'deps' }));
  // Calls to our own origin (the sandboxes) are answered by this app, and it logs what deps report.
  const release = deps.servedBy(app);
  app.addHook('onClose', async () => release());

  await app.register(errorHandler);
  await app.register(security, { headers: securityHeaders });
  await app.register(formbody, { bodyLimit: 16 * 1024 });
  await app.register(openapi);
  await app.register(auth);
  await app.register(textGuard);
  await app.register(jobs);
  await app.register(metrics);
  await app.register(tracing);

  const databaseReady = waitForDatabase(deps.databaseReady);
  await app.register(
    async (api) => {
      api.addHook('onRequest', databaseReady);
      await api.register(healthRoutes);
      await api.register(accountRoutes);
      await api.register(profileRoutes);
      await api.register(selfServiceRoutes);
      await api.register(passwordSetRoutes);
      await api.register(tokenRoutes);
      await api.register(contentRoutes);
      await api.register(familyRoutes);
      await api.register(voucherRoutes);
      await api.register(premiumRoutes);
      await api.register(offerRoutes);
      await api.register(billingRoutes);
      await api.register(cardRoutes);
      await api.register(pauseRoutes);
      await api.register(trialRoutes);
      await api.register(ebarimtRoutes);
      await api.register(consoleRoutes, { prefix: '/admin', sections: [consolePlanRoutes] });
    },
    { prefix: '/api' },
  );
  if (!deps.config.isProduction && options.sandboxes !== false) {
    // The built-in stand-ins of the card gateway (product.md §10), QPay and the tax authority's
    // PosAPI (§12): their own workspace (apps/sandboxes), pages and secrets, outside /api,
    // loaded only here. Never in production, where the real providers are required (security.md).
    for (const [prefix, sandbox] of await loadSandboxes()) {
      await app.register(
        async (scope) => {
          scope.addHook('onRequest', databaseReady);
          await scope.register(sandbox);
        },
        { prefix },
      );
    }
  }
  if (!deps.config.isProduction) {
    await app.register(
      async (dev) => {
        // Development tools (product.md §11); never mounted in production.
        dev.addHook('onRequest', databaseReady);
        for (const plugin of devPlugins) await dev.register(plugin);
      },
      { prefix: '/dev' },
    );
  }

  await app.register(webApp);
  return app;
}
