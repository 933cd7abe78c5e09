import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';

/**
 * api.md and §7: the browser never holds a secret. The site is built for production exactly
 * as `npm run build` does (into a temporary folder, so a build in progress elsewhere does not
 * matter), then every file it ships is searched for secrets and source maps.
 */
const root = fileURLToPath(new URL('../../../../', import.meta.url));
let outDir: string;
let files: { name: string; text: string }[];

function listFiles(directory: string): string[] {
  return readdirSync(directory).flatMap((entry) => {
    const full = path.join(directory, entry);
    return statSync(full).isDirectory() ? listFiles(full) : [full];
  });
}

beforeAll(() => {
  outDir = mkdtempSync(path.join(tmpdir(), 'tunes-bundle-'));
  const viteRoot = path.dirname(
    createRequire(import.meta.url).resolve('vite/package.json', { paths: [root] }),
  );
  const vite = path.join(viteRoot, 'bin', 'vite.js');
  const built = spawnSync(
    process.execPath,
    [vite, 'build', 'apps/web', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'error'],
    { cwd: root, env: { ...process.env, NODE_ENV: 'production' }, encoding: 'utf8', timeout: 180_000 },
  );
  if (built.status !== 0) throw new Error(`The site did not build:\n${built.stderr}${built.stdout}`);
  files = listFiles(outDir).map((file) => ({
    name: path.relative(outDir, file),
    text: readFileSync(file, 'latin1'),
  }));
}, 200_000);

afterAll(() => {
  if (outDir) rmSync(outDir, { recursive: true, force: true });
});

/** Every secret the server can be given: its development defaults and any value in `.env.example`. */
function knownSecrets(): string[] {
  const config = loadConfig({ NODE_ENV: 'development' }) as unknown as Record<string, unknown>;
  const fromConfig = Object.entries(config)
    .filter(([name]) => /SECRET|TOKEN|PASSWORD|PRIVATE|_KEY$/.test(name))
    .map(([, value]) => value)
    .filter((value): value is string => typeof value === 'string' && value.length >= 8);
  const example = readFileSync(path.join(root, '.env.example'), 'utf8');
  const fromExample = [...example.matchAll(/^\s*\w*(?:SECRET|TOKEN|PASSWORD|KEY)\w*=([^\s#]+)/gm)]
    .map((match) => match[1] ?? '')
    .filter((value) => value.length >= 8);
  const fromEnvironment = Object.entries(process.env)
    .filter(([name, value]) => /_SECRET$/.test(name) && value && value.length >= 8)
    .map(([, value]) => value as string);
  return [...new Set([...fromConfig, ...fromExample, ...fromEnvironment])];
}

/** Markers of credentials that have no business in a browser bundle. */
const CREDENTIAL_MARKERS = [
  'client_secret',
  'PAYMENT_CLIENT_SECRET',
  'JWT_SECRET',
  'HMAC_SECRET',
  'SANDBOX_GATEWAY_SECRET',
  '"private_key"',
  '"type":"service_account"',
  '-----BEGIN',
  'grant_type=password&admin=Y',
];

describe('the production site bundle', () => {
  it('ships the site (the check is not vacuous)', () => {
    expect(files.map((file) => file.name)).toContain('index.html');
    expect(files.filter((file) => file.name.endsWith('.js')).length).toBeGreaterThan(3);
  });

  it('holds none of the server secrets, neither the development defaults nor configured ones', () => {
    const secrets = knownSecrets();
    expect(secrets.length).toBeGreaterThan(0);
    const leaks = files.flatMap((file) =>
      secrets
        .filter((secret) => file.text.includes(secret))
        .map((secret) => `${file.name}: ${secret.slice(0, 6)}…`),
    );
    expect(leaks).toEqual([]);
  });

  it('holds no client secret, service-account credential or private key', () => {
    const leaks = files.flatMap((file) =>
      CREDENTIAL_MARKERS.filter((marker) => file.text.includes(marker)).map(
        (marker) => `${file.name}: ${marker}`,
      ),
    );
    expect(leaks).toEqual([]);
  });

  it('ships no source maps and no links to them', () => {
    expect(files.filter((file) => file.name.endsWith('.map')).map((file) => file.name)).toEqual([]);
    expect(files.filter((file) => /[#@] sourceMappingURL=/.test(file.text)).map((file) => file.name)).toEqual(
      [],
    );
  });
});
