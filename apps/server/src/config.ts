import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { type ProviderUrlName, testEndpointReason } from './test-endpoints.js';

const DEV_SECRET = 'development-only-secret-change-me-in-production';

const booleanFromEnv = z
  .enum(['true', 'false', '1', '0'])
  .transform((value) => value === 'true' || value === '1');

const SANDBOX_CLIENT_ID = 'sandbox-client';
const SANDBOX_QPAY_CLIENT_ID = 'sandbox-qpay';
/** The sandbox PosAPI's merchant (a made-up 11-digit taxpayer number). */
const SANDBOX_MERCHANT_TIN = '37900846788';

function isLoopback(url: string): boolean {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host === '::1' ||
    /^127\./.test(host) ||
    host === '0.0.0.0'
  );
}

const secret = z.string().min(32, 'must be at least 32 characters');

/** security.md "Sends": the hard hourly cap per client address, and per number prefix. */
const DEFAULT_HARD_SENDS_PER_CLIENT = 300;
const DEFAULT_SMS_PER_PREFIX = 100;
/** Unless set, one prefix may take a tenth of the site's hourly SMS budget (when that is more than 100). */
const SITE_BUDGET_SHARE_PER_PREFIX = 10;

/** One address (`10.0.0.5`, `::1`) or a block of them (`10.0.0.0/8`, `fd00::/8`). */
function isAddressOrCidr(entry: string): boolean {
  const [address = '', prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

/**
 * The proxies whose X-Forwarded-For is believed: addresses or CIDRs, comma-separated. A request
 * from anywhere else is judged by the address it connected from, whatever header it sends.
 */
const trustedProxies = z.string().transform((value, ctx) => {
  const entries = value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  for (const entry of entries) {
    if (!isAddressOrCidr(entry)) {
      ctx.addIssue({
        code: 'custom',
        message: `"${entry}" is no address or CIDR: list the proxies in front (e.g. 10.0.0.5,10.1.0.0/16)`,
      });
    }
  }
  return entries;
});

/**
 * Every environment variable the server reads, validated once at start-up.
 * `.env.example` lists the same variables with their defaults.
 */
const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
    HOST: z.string().min(1).default('0.0.0.0'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    PUBLIC_URL: z.url().optional(),
    DATA_DIR: z.string().min(1).default('./data'),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
      .optional(),
    DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
    REDIS_URL: z
      .string()
      .regex(/^rediss?:\/\//, 'must be a redis:// URL')
      .optional(),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /** `json` (default in production) or `pretty`, one readable line per request (default otherwise). */
    LOG_FORMAT: z.enum(['json', 'pretty']).optional(),
    TRUST_PROXY: trustedProxies.default([]),
    /** The API's documentation at /api/docs: on outside production, in production only when true. */
    API_DOCS: booleanFromEnv.optional(),
    SEED_DEMO_DATA: booleanFromEnv.optional(),
    WEB_DIST_DIR: z.string().optional(),

    JWT_SECRET: secret.default(DEV_SECRET),
    ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(30).max(86_400).default(900),
    REFRESH_TOKEN_TTL_DAYS: z.coerce.number().int().min(1).max(365).default(30),
    HMAC_SECRET: secret.default(DEV_SECRET),

    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
      .optional(),
    MAIL_FROM: z.string().min(3).default('Tunes <no-reply@tunes.mn>'),
    /** `json` (a POST of `{ id, to, text }` to SMS_PROVIDER_URL) or `messagepro` (CallPro's MessagePro). */
    SMS_PROVIDER: z.enum(['json', 'messagepro']).default('json'),
    /** The JSON provider's endpoint; with messagepro, its send URL (default https://api.messagepro.mn/send). */
    SMS_PROVIDER_URL: z.url().optional(),
    SMS_PROVIDER_TOKEN: z.string().optional(),
    /** MessagePro's key for the organisation (`x-api-key`) and the special number it sends from. */
    MESSAGEPRO_API_KEY: z.string().min(1).max(200).optional(),
    MESSAGEPRO_FROM: z
      .string()
      .regex(/^\d{4,15}$/, 'must be the special number MessagePro gave the organisation (digits)')
      .optional(),
    /** How long one SMS send may take before it counts as failed; the retry carries the same id. */
    MESSAGE_SEND_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
    /** Text messages listeners may make the site send per hour, all together (SMS pumping). */
    SMS_HOURLY_BUDGET: z.coerce.number().int().min(1).max(1_000_000).default(1000),
    /**
     * Sign-in codes one client address may have sent per hour, to anyone, before each further one
     * needs a solved proof-of-work challenge (many listeners share a carrier's address).
     */
    SENDS_PER_CLIENT_HOURLY: z.coerce.number().int().min(1).max(100_000).default(10),
    /** Messages one client address may have sent per hour, challenges solved or not (hard cap; default the larger of 300 and SENDS_PER_CLIENT_HOURLY). */
    SENDS_PER_CLIENT_HOURLY_MAX: z.coerce.number().int().min(1).max(1_000_000).optional(),
    /** Text messages per hour to numbers sharing all but their last 4 digits (default the larger of 100 and SMS_HOURLY_BUDGET / 10). */
    SMS_PER_PREFIX_HOURLY: z.coerce.number().int().min(1).max(1_000_000).optional(),
    /** The send challenge's PBKDF2 iterations per try, and the most tries a solver needs (half that at least). */
    SEND_CHALLENGE_COST: z.coerce.number().int().min(1).max(1_000_000).default(1000),
    SEND_CHALLENGE_MAX_TRIES: z.coerce.number().int().min(2).max(10_000_000).default(10_000),
    /** Written opt-outs for a staging site in production: no SMS, no e-mail, no payments. */
    ALLOW_NO_SMS: booleanFromEnv.default(false),
    ALLOW_NO_EMAIL: booleanFromEnv.default(false),
    ALLOW_NO_PAYMENTS: booleanFromEnv.default(false),
    ALLOW_NO_QPAY: booleanFromEnv.default(false),
    ALLOW_NO_EBARIMT: booleanFromEnv.default(false),
    /** A staging site in production may use QPay's or the tax authority's test systems or our sandboxes. */
    ALLOW_TEST_PROVIDERS: booleanFromEnv.default(false),
    /** A staging site in production may be served over plain http (links in messages use PUBLIC_URL). */
    ALLOW_HTTP_PUBLIC_URL: booleanFromEnv.default(false),

    PAYMENT_PROVIDER_URL: z.url().optional(),
    PAYMENT_CLIENT_ID: z.string().min(1).default(SANDBOX_CLIENT_ID),
    PAYMENT_CLIENT_SECRET: secret.default(DEV_SECRET),
    PAYMENT_CALLBACK_SECRET: secret.default(DEV_SECRET),
    PAYMENT_CHECK_INTERVAL_SECONDS: z.coerce.number().int().min(0).max(3600).default(60),
    SANDBOX_GATEWAY_SECRET: secret.default(DEV_SECRET),

    /** QPay merchant API v2 (product.md §12); the built-in sandbox when unset. */
    QPAY_URL: z.url().optional(),
    QPAY_CLIENT_ID: z.string().min(1).max(200).default(SANDBOX_QPAY_CLIENT_ID),
    QPAY_CLIENT_SECRET: z.string().min(8).max(500).default(DEV_SECRET),
    /** The invoice template QPay registered for the merchant. */
    QPAY_INVOICE_CODE: z.string().min(1).max(45).default('TUNES_INVOICE'),
    /** Who receives QPay's invoices on its side (`invoice_receiver_code`). */
    QPAY_RECEIVER_CODE: z.string().min(1).max(45).default('terminal'),

    /** The tax authority's PosAPI 3.0 (its local service); the built-in sandbox when unset. */
    EBARIMT_URL: z.url().optional(),
    /** Where a company's name is looked up by registry number; EBARIMT_URL when unset. */
    EBARIMT_INFO_URL: z.url().optional(),
    EBARIMT_MERCHANT_TIN: z
      .string()
      .regex(/^\d{11,14}$/, 'must be the 11-14 digit taxpayer number (TIN)')
      .default(SANDBOX_MERCHANT_TIN),
    EBARIMT_BRANCH_NO: z
      .string()
      .regex(/^\d{3}$/, 'must be 3 digits')
      .default('001'),
    EBARIMT_POS_NO: z.string().min(1).max(20).default('001'),
    EBARIMT_DISTRICT_CODE: z
      .string()
      .regex(/^\d{4}$/, 'must be 4 digits')
      .default('2501'),
    /** The product's classification code (GS1) on the receipt line. */
    EBARIMT_CLASSIFICATION_CODE: z
      .string()
      .regex(/^\d{7}$/, 'must be 7 digits')
      .default('8413100'),

    COUPON_SERVICE_URL: z.url().optional(),
    /** OTLP/HTTP collector for traces (e.g. http://otel-collector:4318); no tracing without it. */
    OTEL_EXPORTER_OTLP_ENDPOINT: z.url().optional(),
    OTEL_SERVICE_NAME: z.string().min(1).max(100).default('tunes'),
    /** Bearer token for GET /metrics; the route is absent without it. */
    METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  })
  .superRefine((env, ctx) => {
    const fail = (name: keyof typeof env, message: string) =>
      ctx.addIssue({ code: 'custom', path: [name], message });
    if (env.SMS_PROVIDER === 'messagepro') {
      if (!env.MESSAGEPRO_API_KEY) fail('MESSAGEPRO_API_KEY', 'must be set with SMS_PROVIDER=messagepro');
      if (!env.MESSAGEPRO_FROM) fail('MESSAGEPRO_FROM', 'must be set with SMS_PROVIDER=messagepro');
    }
    if (
      env.SENDS_PER_CLIENT_HOURLY_MAX !== undefined &&
      env.SENDS_PER_CLIENT_HOURLY_MAX < env.SENDS_PER_CLIENT_HOURLY
    ) {
      fail(
        'SENDS_PER_CLIENT_HOURLY_MAX',
        'must not be below SENDS_PER_CLIENT_HOURLY (the sends without a challenge)',
      );
    }
    if (env.NODE_ENV !== 'production') return;
    for (const name of [
      'JWT_SECRET',
      'HMAC_SECRET',
      'PAYMENT_CLIENT_SECRET',
      'PAYMENT_CALLBACK_SECRET',
    ] as const) {
      if (env[name] === DEV_SECRET) fail(name, 'must be set in production');
    }
    // security.md: production never sells through a sandbox nor starts without its providers.
    if (!env.PAYMENT_PROVIDER_URL && !env.ALLOW_NO_PAYMENTS) {
      fail(
        'PAYMENT_PROVIDER_URL',
        'must name the card gateway in production (or set ALLOW_NO_PAYMENTS=true)',
      );
    }
    if (env.PAYMENT_PROVIDER_URL && env.PAYMENT_CLIENT_ID === SANDBOX_CLIENT_ID) {
      fail('PAYMENT_CLIENT_ID', 'must be set in production');
    }
    if (!env.QPAY_URL && !env.ALLOW_NO_QPAY) {
      fail('QPAY_URL', 'must name the QPay merchant API in production (or set ALLOW_NO_QPAY=true)');
    }
    if (env.QPAY_URL && env.QPAY_CLIENT_ID === SANDBOX_QPAY_CLIENT_ID) {
      fail('QPAY_CLIENT_ID', 'must be set in production');
    }
    if (env.QPAY_URL && env.QPAY_CLIENT_SECRET === DEV_SECRET) {
      fail('QPAY_CLIENT_SECRET', 'must be set in production');
    }
    if (!env.EBARIMT_URL && !env.ALLOW_NO_EBARIMT) {
      fail(
        'EBARIMT_URL',
        "must name the tax authority's PosAPI in production (or set ALLOW_NO_EBARIMT=true)",
      );
    }
    if (env.EBARIMT_URL && env.EBARIMT_MERCHANT_TIN === SANDBOX_MERCHANT_TIN) {
      fail('EBARIMT_MERCHANT_TIN', 'must be set in production');
    }
    if (env.SMS_PROVIDER === 'json' && !env.SMS_PROVIDER_URL && !env.ALLOW_NO_SMS) {
      fail('SMS_PROVIDER_URL', 'must name the SMS provider in production (or set ALLOW_NO_SMS=true)');
    }
    if (!env.SMTP_URL && !env.ALLOW_NO_EMAIL) {
      fail('SMTP_URL', 'must name the mail server in production (or set ALLOW_NO_EMAIL=true)');
    }
    if (!env.ALLOW_TEST_PROVIDERS) {
      const urls: ProviderUrlName[] = ['PAYMENT_PROVIDER_URL', 'QPAY_URL', 'EBARIMT_URL', 'EBARIMT_INFO_URL'];
      for (const name of urls) {
        const url = env[name];
        const reason = url && testEndpointReason(name, url);
        if (reason) {
          fail(name, `${reason}: not in production (a staging site sets ALLOW_TEST_PROVIDERS=true)`);
        }
      }
    }
    if (!env.PUBLIC_URL) fail('PUBLIC_URL', "must be set in production to the site's public origin");
    else if (isLoopback(env.PUBLIC_URL)) {
      fail('PUBLIC_URL', 'must not be a localhost address in production (links in messages use it)');
    } else if (new URL(env.PUBLIC_URL).protocol !== 'https:' && !env.ALLOW_HTTP_PUBLIC_URL) {
      fail(
        'PUBLIC_URL',
        'must be https in production (links in messages use it; a staging site sets ALLOW_HTTP_PUBLIC_URL=true)',
      );
    }
  });

export type Env = z.infer<typeof envSchema>;

export interface Config
  extends Omit<
    Env,
    | 'PUBLIC_URL'
    | 'SEED_DEMO_DATA'
    | 'PAYMENT_PROVIDER_URL'
    | 'LOG_FORMAT'
    | 'QPAY_URL'
    | 'EBARIMT_URL'
    | 'EBARIMT_INFO_URL'
    | 'SENDS_PER_CLIENT_HOURLY_MAX'
    | 'SMS_PER_PREFIX_HOURLY'
  > {
  /** Messages one client address may have sent per hour, challenges solved or not (the hard cap). */
  SENDS_PER_CLIENT_HOURLY_MAX: number;
  /** Text messages per hour to the numbers of one prefix (all but the last 4 digits). */
  SMS_PER_PREFIX_HOURLY: number;
  LOG_FORMAT: 'json' | 'pretty';
  /** The site's own origin, used in links sent by e-mail and SMS. */
  PUBLIC_URL: string;
  SEED_DEMO_DATA: boolean;
  PAYMENT_PROVIDER_URL: string;
  isProduction: boolean;
  /** False on a production site that opted out of payments: checkouts answer 503. */
  paymentsEnabled: boolean;
  QPAY_URL: string;
  /** False on a production site that opted out of QPay (ALLOW_NO_QPAY): QPay checkouts answer 503. */
  qpayEnabled: boolean;
  EBARIMT_URL: string;
  EBARIMT_INFO_URL: string;
  /** False on a production site that opted out of e-barimt (ALLOW_NO_EBARIMT): no receipt is issued. */
  ebarimtEnabled: boolean;
  dataDir: string;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Reads and validates the environment; throws a ConfigError naming every bad variable. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  const input = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ''));
  const parsed = envSchema.safeParse(input);
  if (!parsed.success) {
    const lines = parsed.error.issues.map(
      (issue) => `  ${issue.path.join('.') || '(env)'}: ${issue.message}`,
    );
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const env = parsed.data;
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, '');
  const ebarimtUrl = (env.EBARIMT_URL ?? `${publicUrl}/sandbox-ebarimt`).replace(/\/$/, '');
  return {
    ...env,
    PUBLIC_URL: publicUrl,
    SEED_DEMO_DATA: env.SEED_DEMO_DATA ?? env.NODE_ENV !== 'production',
    LOG_FORMAT: env.LOG_FORMAT ?? (env.NODE_ENV === 'production' ? 'json' : 'pretty'),
    PAYMENT_PROVIDER_URL: (env.PAYMENT_PROVIDER_URL ?? `${publicUrl}/sandbox-gateway`).replace(/\/$/, ''),
    isProduction: env.NODE_ENV === 'production',
    paymentsEnabled: env.NODE_ENV !== 'production' || env.PAYMENT_PROVIDER_URL !== undefined,
    QPAY_URL: (env.QPAY_URL ?? `${publicUrl}/sandbox-qpay`).replace(/\/$/, ''),
    qpayEnabled: env.NODE_ENV !== 'production' || env.QPAY_URL !== undefined,
    EBARIMT_URL: ebarimtUrl,
    EBARIMT_INFO_URL: (env.EBARIMT_INFO_URL ?? ebarimtUrl).replace(/\/$/, ''),
    ebarimtEnabled: env.NODE_ENV !== 'production' || env.EBARIMT_URL !== undefined,
    dataDir: path.resolve(env.DATA_DIR),
    SENDS_PER_CLIENT_HOURLY_MAX:
      env.SENDS_PER_CLIENT_HOURLY_MAX ?? Math.max(DEFAULT_HARD_SENDS_PER_CLIENT, env.SENDS_PER_CLIENT_HOURLY),
    SMS_PER_PREFIX_HOURLY:
      env.SMS_PER_PREFIX_HOURLY ??
      Math.max(DEFAULT_SMS_PER_PREFIX, Math.ceil(env.SMS_HOURLY_BUDGET / SITE_BUDGET_SHARE_PER_PREFIX)),
  };
}
