import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Features never import each other (docs/architecture.md): routes in app/ compose them, and what
 * several need lives in lib/ or components/. Every folder here is checked, so a new feature is
 * covered the day it is created.
 */
const featuresDir = path.dirname(fileURLToPath(import.meta.url));
const srcDir = path.dirname(featuresDir);

const features = readdirSync(featuresDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx)$/.test(entry.name) ? [full] : [];
  });
}

/** `from '…'`, `import '…'` and `import('…')`. */
const IMPORT = /(?:^|[^\w.$])(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g;

/** The features other than the file's own that `code` in `file` imports from. */
function crossFeatureImports(file: string, code: string): string[] {
  const own = path.relative(featuresDir, file).split(path.sep)[0];
  return [...code.matchAll(IMPORT)].flatMap(([, specifier = '']) => {
    const target = specifier.startsWith('@/')
      ? path.join(srcDir, specifier.slice(2))
      : specifier.startsWith('.')
        ? path.resolve(path.dirname(file), specifier)
        : null;
    if (!target) return [];
    const [feature, ...rest] = path.relative(featuresDir, target).split(path.sep);
    const inAFeature = feature !== '..' && rest.length > 0;
    return inAFeature && feature !== own ? [`${specifier} (feature ${feature})`] : [];
  });
}

/** The operator console's code (decision 0020): only its own entry and its own files reach it. */
const adminDir = path.join(srcDir, 'admin');

/** What `code` in `file` (outside the console) imports from the console; type-only imports carry no code. */
function consoleImports(file: string, code: string): string[] {
  const valueImports = code.replace(/^import type [^;]+;$/gm, '');
  return [...valueImports.matchAll(IMPORT)].flatMap(([, specifier = '']) => {
    const target = specifier.startsWith('@/')
      ? path.join(srcDir, specifier.slice(2))
      : specifier.startsWith('.')
        ? path.resolve(path.dirname(file), specifier)
        : null;
    return target && !path.relative(adminDir, target).startsWith('..') ? [specifier] : [];
  });
}

describe('console isolation', () => {
  it('catches the console reached by alias or by a relative path, but not a type-only import', () => {
    const file = path.join(srcDir, 'app', 'routes', 'landing.tsx');
    const code = [
      "import { ConsoleApp } from '@/admin/console-app';",
      "const lazy = import('../../admin/pages/content');",
      "import type admin from '../../admin/locales/en.json';",
      "import { Landing } from '@/features/content/components/landing';",
    ].join('\n');
    expect(consoleImports(file, code)).toEqual(['@/admin/console-app', '../../admin/pages/content']);
  });

  it('no listener module imports the console', () => {
    const found = sourceFiles(srcDir)
      .filter((file) => path.relative(adminDir, file).startsWith('..') && !/\.test\.tsx?$/.test(file))
      .flatMap((file) =>
        consoleImports(file, readFileSync(file, 'utf8')).map(
          (specifier) => `${path.relative(srcDir, file)}: ${specifier}`,
        ),
      );
    expect(found, 'The console (src/admin) is its own build: listener code never imports it.').toEqual([]);
  });
});

describe('feature isolation', () => {
  it('finds the features', () => {
    expect(features).toEqual(
      expect.arrayContaining(['accounts', 'content', 'family', 'premium', 'vouchers']),
    );
  });

  it('catches another feature reached by alias or by a relative path, at any depth', () => {
    const file = path.join(featuresDir, 'accounts', 'components', 'profile.tsx');
    const code = [
      "import { VoucherBox } from '@/features/vouchers/components/voucher-box';",
      "import { usePlans } from '../../premium/api/get-plans';",
      "const lazy = import('../../family/components/family-plan');",
      "import { otp } from '../api/otp';",
      "import { FormField } from '@/components/form-field';",
      "import { useTranslation } from 'react-i18next';",
    ].join('\n');
    expect(crossFeatureImports(file, code)).toEqual([
      '@/features/vouchers/components/voucher-box (feature vouchers)',
      '../../premium/api/get-plans (feature premium)',
      '../../family/components/family-plan (feature family)',
    ]);
    expect(
      crossFeatureImports(path.join(featuresDir, 'premium', 'format.ts'), "import '../content/x';"),
    ).toEqual(['../content/x (feature content)']);
  });

  for (const feature of features) {
    it(`${feature} imports no other feature`, () => {
      const found = sourceFiles(path.join(featuresDir, feature)).flatMap((file) =>
        crossFeatureImports(file, readFileSync(file, 'utf8')).map(
          (found) => `${path.relative(srcDir, file)}: ${found}`,
        ),
      );
      expect(
        found,
        'Features never import each other: compose them in a route (app/routes) or move shared code to lib/ or components/.',
      ).toEqual([]);
    });
  }
});
