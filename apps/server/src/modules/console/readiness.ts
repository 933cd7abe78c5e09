import { MERCHANT_ID, PAYMENT_CURRENCY } from '@tunes/shared/constants';
import { CONTENT_TYPES, type ContentType } from '@tunes/shared/content';
import { PREMIUM_OFFERS } from '@tunes/shared/premium-rules';
import type { Readiness, ReadinessCheck } from '@tunes/shared/readiness';
import type { Config } from '../../config.js';
import type { Deps } from '../../deps.js';
import { type ProviderUrlName, testEndpointReason } from '../../test-endpoints.js';
import { readStoredContent } from '../content/content-store.js';
import './tables.js';

/**
 * `GET /api/admin/readiness`: what the site still lacks before it can sell, from what the server
 * itself knows (its plans, landing content, configuration and operators). The console's
 * first-run panel shows it with the command or variables that fix each.
 */

const IMPORT = 'npm run admin -- catalog:import <catalog.yaml>';
const ADD_ADMIN = 'npm run admin -- operators:add --email <e-mail> --role admin';
const ok = (id: ReadinessCheck['id'], count?: number): ReadinessCheck => ({
  id,
  status: 'ok',
  ...(count === undefined ? {} : { count }),
});

export async function readiness(deps: Pick<Deps, 'db' | 'config'>): Promise<Readiness> {
  const checks = [
    ...(await catalogChecks(deps)),
    ...providerChecks(deps.config),
    await operatorsCheck(deps),
    publicUrlCheck(deps.config),
    await demoDataCheck(deps),
  ];
  return { ready: checks.every((check) => check.status !== 'missing'), checks };
}

async function catalogChecks(deps: Pick<Deps, 'db'>): Promise<ReadinessCheck[]> {
  const plans = await deps.db
    .selectFrom('packages')
    .select(['merchant_code', 'is_active'])
    .where('merchant_id', '=', MERCHANT_ID)
    .where('currency', '=', PAYMENT_CURRENCY)
    .where('offer', 'in', [...PREMIUM_OFFERS])
    .execute();
  const onSale = plans.filter((plan) => plan.is_active).length;
  const planCheck: ReadinessCheck =
    onSale > 0
      ? ok('plans', onSale)
      : {
          id: 'plans',
          status: 'missing',
          reason: plans.length > 0 ? 'retired-only' : 'none',
          count: 0,
          command: IMPORT,
        };

  const content = await readStoredContent(deps);
  if (!content) {
    const none = { status: 'missing', reason: 'none', command: IMPORT } as const;
    return [planCheck, { id: 'landing-en', ...none }, { id: 'landing-mn', ...none }];
  }
  const empty = CONTENT_TYPES.filter(
    (type: ContentType) => !content.cards.some((card) => card.type === type),
  );
  const english: ReadinessCheck =
    empty.length > 0
      ? { id: 'landing-en', status: 'notice', reason: 'empty-card-types', names: empty, command: IMPORT }
      : ok('landing-en', content.cards.length);
  // Mongolian listeners see the English text where a card or reel has none of its own.
  const untranslated =
    content.cards.filter((card) => !card.titleMn).length +
    content.landing.reels.filter((reel) => !reel.descriptionMn).length;
  const mongolian: ReadinessCheck =
    untranslated > 0
      ? { id: 'landing-mn', status: 'notice', reason: 'untranslated', count: untranslated, command: IMPORT }
      : ok('landing-mn', content.cards.length);
  return [planCheck, english, mongolian];
}

/** A provider's state: real, a test system or sandbox, switched off in writing, or absent. */
function providerState(
  config: Config,
  name: ProviderUrlName,
  enabled: boolean,
): 'real' | 'sandbox' | 'test-provider' | 'opted-out' {
  if (!enabled) return 'opted-out';
  if (!testEndpointReason(name, config[name])) return 'real';
  // Outside production the built-in sandboxes are the default; production opted in to test systems.
  return config.isProduction ? 'test-provider' : 'sandbox';
}

function providerChecks(config: Config): ReadinessCheck[] {
  const card = providerState(config, 'PAYMENT_PROVIDER_URL', config.paymentsEnabled);
  const qpay = providerState(config, 'QPAY_URL', config.qpayEnabled);
  const ebarimt = providerState(config, 'EBARIMT_URL', config.ebarimtEnabled);
  // Without either payment method nothing can be sold; without one, the other still sells.
  const noPayments = card === 'opted-out' && qpay === 'opted-out';
  const payment = (
    id: 'card-payments' | 'qpay',
    state: ReturnType<typeof providerState>,
    variables: string[],
  ): ReadinessCheck =>
    state === 'real'
      ? ok(id)
      : {
          id,
          status: state === 'opted-out' && noPayments ? 'missing' : 'notice',
          reason: state,
          variables,
        };

  const sms = config.SMS_PROVIDER === 'messagepro' || config.SMS_PROVIDER_URL !== undefined;
  const email = config.SMTP_URL !== undefined;
  // A listener signs in with a code by SMS or e-mail: with neither, nobody can.
  const message = (id: 'sms' | 'email', configured: boolean, variables: string[]): ReadinessCheck =>
    configured
      ? ok(id)
      : {
          id,
          status: !sms && !email && config.isProduction ? 'missing' : 'notice',
          reason: config.isProduction ? 'opted-out' : 'not-configured',
          variables,
        };

  return [
    payment('card-payments', card, ['PAYMENT_PROVIDER_URL', 'PAYMENT_CLIENT_ID', 'PAYMENT_CLIENT_SECRET']),
    payment('qpay', qpay, ['QPAY_URL', 'QPAY_CLIENT_ID', 'QPAY_CLIENT_SECRET', 'QPAY_INVOICE_CODE']),
    ebarimt === 'real'
      ? ok('ebarimt')
      : {
          id: 'ebarimt',
          status: 'notice',
          reason: ebarimt,
          variables: ['EBARIMT_URL', 'EBARIMT_MERCHANT_TIN', 'EBARIMT_BRANCH_NO', 'EBARIMT_POS_NO'],
        },
    message('sms', sms, ['SMS_PROVIDER_URL', 'SMS_PROVIDER']),
    message('email', email, ['SMTP_URL', 'MAIL_FROM']),
  ];
}

/** Operators who can sign in: a single admin who loses their phone locks the console. */
async function operatorsCheck(deps: Pick<Deps, 'db'>): Promise<ReadinessCheck> {
  const admins = await deps.db
    .selectFrom('operators')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('role', '=', 'admin')
    .where('disabled_at', 'is', null)
    .where('password_hash', 'is not', null)
    .where('totp_secret', 'is not', null)
    .executeTakeFirstOrThrow();
  const count = Number(admins.count);
  if (count >= 2) return ok('operators', count);
  return {
    id: 'operators',
    status: 'notice',
    reason: count === 0 ? 'no-admin' : 'single-admin',
    count,
    command: ADD_ADMIN,
  };
}

function publicUrlCheck(config: Config): ReadinessCheck {
  const url = new URL(config.PUBLIC_URL);
  if (/^(localhost|127\.|\[::1\])/.test(url.host)) {
    return {
      id: 'public-url',
      status: 'notice',
      reason: 'localhost',
      names: [config.PUBLIC_URL],
      variables: ['PUBLIC_URL'],
    };
  }
  if (url.protocol !== 'https:') {
    return {
      id: 'public-url',
      status: 'notice',
      reason: 'plain-http',
      names: [config.PUBLIC_URL],
      variables: ['PUBLIC_URL'],
    };
  }
  return ok('public-url');
}

/** The demo plans and content of development (SEED_DEMO_DATA) were loaded into this database. */
async function demoDataCheck(deps: Pick<Deps, 'db'>): Promise<ReadinessCheck> {
  const seeds = await deps.db.selectFrom('demo_seeds').select('name').orderBy('name').execute();
  if (seeds.length === 0) return ok('demo-data');
  return {
    id: 'demo-data',
    status: 'notice',
    reason: 'loaded',
    names: seeds.map((seed) => seed.name),
    command: IMPORT,
  };
}
