import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { parse } from 'yaml';
import { createDatabaseFromTemplate } from '../helpers/postgres.js';
import { testDatabaseKind } from '../helpers/test-app.js';

/**
 * compose.yaml starts the site: the built server (`apps/server/dist/server.js`, what the image
 * runs) is started with exactly the environment compose.yaml gives its `site` service, its
 * `${…}` filled in as compose fills them from an operator's `.env`, against a fresh local
 * PostgreSQL database, and must answer `GET /api/health`. PostgreSQL only: the file's site runs on
 * PostgreSQL. The one departure: compose's network names its services (`postgres`, `redis`);
 * here they are this machine's servers, the database a fresh copy of the migrated template.
 */
const root = fileURLToPath(new URL('../../../../', import.meta.url));
const serverEntry = path.join(root, 'apps/server/dist/server.js');

const SECRETS = {
  POSTGRES_PASSWORD: 'compose-test-database-password',
  JWT_SECRET: 'j'.repeat(40),
  HMAC_SECRET: 'h'.repeat(40),
  PAYMENT_CLIENT_SECRET: 'p'.repeat(40),
  PAYMENT_CALLBACK_SECRET: 'c'.repeat(40),
};
/** The `.env` of the real site (made-up providers: the start contacts none of them). */
const PRODUCTION_ENV = {
  ...SECRETS,
  PUBLIC_URL: 'https://tunes.example.mn',
  METRICS_TOKEN: 'compose-test-metrics-token',
  PAYMENT_PROVIDER_URL: 'https://pay.example.mn',
  PAYMENT_CLIENT_ID: 'tunes-live',
  QPAY_URL: 'https://merchant.qpay.example.mn',
  QPAY_CLIENT_ID: 'TUNES',
  QPAY_CLIENT_SECRET: 'q'.repeat(20),
  QPAY_INVOICE_CODE: 'TUNES_INVOICE',
  EBARIMT_URL: 'http://posapi.internal:7080',
  EBARIMT_MERCHANT_TIN: '12345678901',
  SMS_PROVIDER_URL: 'https://sms.example.mn/send',
  SMS_PROVIDER_TOKEN: 'sms-token',
  SMTP_URL: 'smtps://mailer:secret@smtp.example.mn',
  MAIL_FROM: 'Tunes <no-reply@tunes.example.mn>',
};
/** The `.env` of a staging site: the secrets, its origin, and a written opt-out per provider. */
const STAGING_ENV = {
  ...SECRETS,
  PUBLIC_URL: 'http://staging.tunes.example.mn',
  ALLOW_HTTP_PUBLIC_URL: 'true',
  ALLOW_NO_PAYMENTS: 'true',
  ALLOW_NO_QPAY: 'true',
  ALLOW_NO_EBARIMT: 'true',
  ALLOW_NO_SMS: 'true',
  ALLOW_NO_EMAIL: 'true',
};

/**
 * Compose's interpolation (compose-spec "Interpolation"): `${VAR}`, `${VAR:-default}`,
 * `${VAR-default}`, `${VAR:?message}`, `${VAR?message}`, `${VAR:+other}`, `${VAR+other}`, `$VAR`
 * and `$$`. A missing required variable fails as compose does, with its message.
 */
function interpolate(text: string, env: Record<string, string | undefined>): string {
  const result = text.replace(
    /\$\$|\$\{([A-Za-z_]\w*)(?:(:?[-?+])([^}]*))?\}|\$([A-Za-z_]\w*)/g,
    (match, braced: string | undefined, operator: string | undefined, argument = '', bare?: string) => {
      if (match === '$$') return '\u0000';
      const name = braced ?? bare ?? '';
      const value = env[name];
      const isSet = value !== undefined;
      const hasValue = isSet && value !== '';
      switch (operator) {
        case ':-':
          return hasValue ? value : argument;
        case '-':
          return isSet ? value : argument;
        case ':?':
        case '?':
          if (operator === ':?' ? !hasValue : !isSet) {
            throw new Error(`required variable ${name} is missing a value: ${argument}`);
          }
          return value ?? '';
        case ':+':
          return hasValue ? argument : '';
        case '+':
          return isSet ? argument : '';
        default:
          return value ?? '';
      }
    },
  );
  if (result.includes('${')) throw new Error(`unsupported interpolation in ${JSON.stringify(text)}`);
  return result.replaceAll('\u0000', '$');
}

interface ComposeFile {
  services: Record<string, { environment?: Record<string, unknown> }>;
}
const composeFile = parse(readFileSync(path.join(root, 'compose.yaml'), 'utf8')) as ComposeFile;

/** A service's environment as compose would give it, filled in from `env` (an operator's .env). */
function environmentOf(service: string, env: Record<string, string>): Record<string, string> {
  const environment = composeFile.services[service]?.environment;
  if (!environment || Array.isArray(environment)) throw new Error(`${service}: no environment mapping`);
  return Object.fromEntries(
    Object.entries(environment).map(([name, value]) => {
      if (typeof value !== 'string') throw new Error(`${service}.${name}: quote the value (a string)`);
      return [name, interpolate(value, env)];
    }),
  );
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
}, 60_000);

interface Started {
  child: ChildProcess;
  baseUrl: string;
  output: () => string;
  exited: Promise<number | null>;
}

/**
 * Starts the built server with the `site` service's environment and nothing else of this
 * machine's (only PATH, to find programs, and a free local port), in an empty folder so no `.env`
 * is read, against a fresh database.
 */
async function startSite(env: Record<string, string>): Promise<Started> {
  const site = environmentOf('site', env);
  const database = await createDatabaseFromTemplate(
    process.env.DATABASE_URL ?? '',
    inject('postgresTemplate'),
  );
  cleanups.push(() => database.drop());
  const port = await freePort();
  const folder = mkdtempSync(path.join(tmpdir(), 'tunes-compose-'));
  cleanups.push(() => rmSync(folder, { recursive: true, force: true }));
  const child = spawn(process.execPath, [serverEntry], {
    cwd: folder,
    env: {
      ...site,
      DATABASE_URL: database.url,
      REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
      HOST: '127.0.0.1',
      PORT: String(port),
      PATH: process.env.PATH ?? '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  cleanups.push(async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  });
  return { child, baseUrl: `http://127.0.0.1:${port}`, output: () => output, exited };
}

/** `/api/health`'s status once the server answers it, within a minute. */
async function healthOf(site: Started): Promise<number> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (site.child.exitCode !== null) {
      throw new Error(`The server exited during start-up:\n${site.output()}`);
    }
    const status = await fetch(`${site.baseUrl}/api/health`)
      .then((response) => response.status)
      .catch(() => 0);
    if (status === 200) return status;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`The server did not answer /api/health within 60 s:\n${site.output()}`);
}

describe('compose.yaml, read as compose reads it', () => {
  it('refuses to start without each secret and the public origin, naming the variable', () => {
    for (const name of [...Object.keys(SECRETS), 'PUBLIC_URL']) {
      const { [name as keyof typeof PRODUCTION_ENV]: _, ...without } = PRODUCTION_ENV;
      expect(() => environmentOf('site', without), name).toThrow(
        new RegExp(`required variable ${name} is missing a value`),
      );
    }
  });

  it("points the site at its own PostgreSQL and Redis, with the database's credentials", () => {
    const site = environmentOf('site', PRODUCTION_ENV);
    const postgres = environmentOf('postgres', PRODUCTION_ENV);
    const database = new URL(site.DATABASE_URL ?? '');
    expect(database.hostname).toBe('postgres');
    expect(decodeURIComponent(database.username)).toBe(postgres.POSTGRES_USER);
    expect(decodeURIComponent(database.password)).toBe(postgres.POSTGRES_PASSWORD);
    expect(database.pathname).toBe(`/${postgres.POSTGRES_DB}`);
    expect(new URL(site.REDIS_URL ?? '').hostname).toBe('redis');
    expect(composeFile.services.postgres).toBeDefined();
    expect(composeFile.services.redis).toBeDefined();
  });

  it('trusts no proxy, as nothing in it stands in front of the site', () => {
    expect(environmentOf('site', PRODUCTION_ENV).TRUST_PROXY).toBe('');
  });
});

describe.skipIf(testDatabaseKind !== 'postgres')('the site of compose.yaml, started', () => {
  beforeAll(() => {
    // The server the image runs: `npm run build`'s output, built here when missing.
    if (existsSync(serverEntry) && existsSync(path.join(root, 'packages/shared/dist'))) return;
    for (const workspace of ['packages/shared', 'apps/server']) {
      const built = spawnSync('npm', ['run', 'build', '--workspace', workspace], {
        cwd: root,
        encoding: 'utf8',
        timeout: 170_000,
      });
      if (built.status !== 0) throw new Error(`${workspace} did not build:\n${built.stdout}${built.stderr}`);
    }
  }, 180_000);

  it('starts in production with its environment alone and answers /api/health', async () => {
    const site = await startSite(PRODUCTION_ENV);
    expect(await healthOf(site)).toBe(200);
    // Production indeed: no development tools, and the metrics behind their token.
    expect((await fetch(`${site.baseUrl}/dev/outbox?to=1`)).status).toBe(404);
    const metrics = await fetch(`${site.baseUrl}/metrics`, {
      headers: { authorization: `Bearer ${PRODUCTION_ENV.METRICS_TOKEN}` },
    });
    expect(metrics.status).toBe(200);
  }, 90_000);

  it('starts a staging site with the secrets, its origin and a written opt-out per provider', async () => {
    const site = await startSite(STAGING_ENV);
    expect(await healthOf(site)).toBe(200);
  }, 90_000);

  it('stops a production start whose providers are neither set nor opted out, naming each', async () => {
    const site = await startSite({ ...SECRETS, PUBLIC_URL: PRODUCTION_ENV.PUBLIC_URL });
    expect(await site.exited).toBe(1);
    for (const name of ['PAYMENT_PROVIDER_URL', 'QPAY_URL', 'EBARIMT_URL', 'SMS_PROVIDER_URL', 'SMTP_URL']) {
      expect(site.output()).toContain(`${name}: must name`);
    }
  }, 60_000);
});
