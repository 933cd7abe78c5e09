import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * A sandbox stands in for an outside provider: of the server it knows the providers' published
 * contracts (modules/providers) and the plumbing every route uses (deps, the database's types,
 * errors, lib), never a product module (a console's table, premium's invoices).
 */
const srcDir = path.dirname(fileURLToPath(import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

const IMPORT = /(?:^|[^\w.$])(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g;
const ALLOWED = /^@tunes\/server\/(deps|db\/schema|lib\/[\w-]+|modules\/providers\/[\w-]+)$/;

/** What `code` imports of the server beyond what a sandbox may know. */
function forbiddenServerImports(code: string): string[] {
  return [...code.matchAll(IMPORT)]
    .map(([, specifier = '']) => specifier)
    .filter((specifier) => specifier.startsWith('@tunes/server') && !ALLOWED.test(specifier));
}

describe('what the sandboxes know of the server', () => {
  it('tells a contract from a product module', () => {
    const code = [
      "import { qpayTokenResponse } from '@tunes/server/modules/providers/qpay-contract';",
      "import type { Deps } from '@tunes/server/deps';",
      "import { AppError } from '@tunes/server/lib/errors';",
      "import '@tunes/server/modules/console/tables';",
      "import { startCheckout } from '@tunes/server/modules/premium/checkout';",
    ].join('\n');
    expect(forbiddenServerImports(code)).toEqual([
      '@tunes/server/modules/console/tables',
      '@tunes/server/modules/premium/checkout',
    ]);
  });

  it('imports only the providers’ contracts and the plumbing', () => {
    const found = sourceFiles(srcDir).flatMap((file) =>
      forbiddenServerImports(readFileSync(file, 'utf8')).map(
        (specifier) => `${path.relative(srcDir, file)}: ${specifier}`,
      ),
    );
    expect(found).toEqual([]);
  });

  it('reaches the server only through its package, never by a path into its folder', () => {
    const found = sourceFiles(srcDir).flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(IMPORT)]
        .map(([, specifier = '']) => specifier)
        .filter(
          (specifier) =>
            specifier.startsWith('.') &&
            path.relative(srcDir, path.resolve(path.dirname(file), specifier)).startsWith('..'),
        )
        .map((specifier) => `${path.relative(srcDir, file)}: ${specifier}`),
    );
    expect(found).toEqual([]);
  });
});
