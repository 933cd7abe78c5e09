import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const SECRET_NAMES = ['PAYMENT_CLIENT_SECRET', 'PAYMENT_CALLBACK_SECRET', 'SANDBOX_GATEWAY_SECRET'] as const;

/** Distinct secrets present in the build's environment: none may end up in the bundle. */
const canaries = Object.fromEntries(
  SECRET_NAMES.map((name) => [name, `canary-${name.toLowerCase()}-${randomBytes(12).toString('hex')}`]),
);

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

let outDir: string;
beforeAll(async () => {
  outDir = await mkdtemp(path.join(tmpdir(), 'premium-secrets-web-'));
  // A fresh build, so the check never passes on a stale or missing dist.
  await promisify(execFile)(
    path.join(ROOT, 'node_modules/.bin/vite'),
    ['build', 'apps/web', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'error'],
    {
      cwd: ROOT,
      env: { ...process.env, ...canaries },
      timeout: 240_000,
    },
  );
}, 300_000);
afterAll(async () => {
  if (outDir) await rm(outDir, { recursive: true, force: true });
});

describe('the built site', () => {
  it('holds no payment secret: not the configured values, not the development defaults, not their names', async () => {
    const files = await filesUnder(outDir);
    expect(files.some((file) => file.endsWith('index.html'))).toBe(true);
    expect(files.filter((file) => file.endsWith('.js')).length).toBeGreaterThan(3);

    const defaults = loadConfig({});
    const forbidden = [
      ...Object.values(canaries),
      ...SECRET_NAMES.map((name) => defaults[name]),
      ...SECRET_NAMES,
      'client_secret',
    ];
    const leaks: string[] = [];
    for (const file of files) {
      const text = await readFile(file, 'latin1');
      for (const secret of forbidden) {
        if (text.includes(secret)) leaks.push(`${path.relative(outDir, file)} contains ${secret}`);
      }
    }
    expect(leaks).toEqual([]);
  });
});
