import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Server modules depend one way (docs/architecture.md, "Modules and their direction"): when
 * module A imports module B, B never imports A, directly or round a longer cycle, and no product
 * module reaches a sandbox. A module is the first folder under `modules/`; every import counts,
 * a type-only one too (it still ties the two together). Every folder is read, so a new module is
 * checked the day it exists.
 */
const modulesDir = path.dirname(fileURLToPath(import.meta.url));
const srcDir = path.dirname(modulesDir);

/** The built-in stand-ins of the providers: their own workspace (apps/sandboxes), never a module. */
const SANDBOX_PACKAGE = '@tunes/sandboxes';
const isSandboxModule = (module: string) => module.startsWith('sandbox-');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

/** `from '…'`, `import '…'`, `import('…')` and `export … from '…'`. */
const IMPORT = /(?:^|[^\w.$])(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g;

/** The module a file under `modules/` belongs to, or undefined for a file elsewhere. */
function moduleOf(file: string): string | undefined {
  const [first, ...rest] = path.relative(modulesDir, file).split(path.sep);
  return first && first !== '..' && rest.length > 0 ? first : undefined;
}

interface ModuleImport {
  from: string;
  to: string;
  /** `<file relative to src>: <specifier>`, the first import that makes the edge. */
  where: string;
}

/** The other modules (and the sandbox workspace) that `code` in `file` imports. */
function moduleImports(file: string, code: string): ModuleImport[] {
  const from = moduleOf(file);
  if (!from) return [];
  return [...code.matchAll(IMPORT)].flatMap(([, specifier = '']) => {
    const where = `${path.relative(modulesDir, file)}: ${specifier}`;
    if (specifier === SANDBOX_PACKAGE || specifier.startsWith(`${SANDBOX_PACKAGE}/`)) {
      return [{ from, to: SANDBOX_PACKAGE, where }];
    }
    if (!specifier.startsWith('.')) return [];
    const to = moduleOf(path.resolve(path.dirname(file), specifier));
    return to && to !== from ? [{ from, to, where }] : [];
  });
}

/** Module → the modules it imports, each with the first import that shows it. */
function moduleGraph(files: { file: string; code: string }[]): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  for (const { file, code } of files) {
    const own = moduleOf(file);
    if (own && !graph.has(own)) graph.set(own, new Map());
    for (const edge of moduleImports(file, code)) {
      const targets = graph.get(edge.from) ?? new Map<string, string>();
      if (!targets.has(edge.to)) targets.set(edge.to, edge.where);
      graph.set(edge.from, targets);
    }
  }
  return graph;
}

/** Each pair of modules that import each other, once, as `a ↔ b (a's import; b's import)`. */
function twoWayPairs(graph: Map<string, Map<string, string>>): string[] {
  const pairs: string[] = [];
  for (const [a, targets] of graph) {
    for (const [b, there] of targets) {
      const back = graph.get(b)?.get(a);
      if (back && a < b) pairs.push(`${a} ↔ ${b} (${there}; ${back})`);
    }
  }
  return pairs.sort();
}

/** Imports that reach a sandbox from a product module. */
function sandboxReaches(graph: Map<string, Map<string, string>>): string[] {
  return [...graph].flatMap(([from, targets]) =>
    isSandboxModule(from)
      ? []
      : [...targets]
          .filter(([to]) => to === SANDBOX_PACKAGE || isSandboxModule(to))
          .map(([to, where]) => `${from} → ${to} (${where})`),
  );
}

/** The cycles longer than two (a pair is reported by `twoWayPairs`), each once, as `a → b → c → a`. */
function longerCycles(graph: Map<string, Map<string, string>>): string[] {
  const found = new Set<string>();
  const walk = (start: string, at: string, trail: string[]) => {
    for (const next of graph.get(at)?.keys() ?? []) {
      // Each cycle is walked from its smallest module only, so it is found once.
      if (next === start && trail.length > 2) found.add([...trail, start].join(' → '));
      else if (next > start && !trail.includes(next)) {
        walk(start, next, [...trail, next]);
      }
    }
  };
  for (const start of graph.keys()) walk(start, start, [start]);
  return [...found].sort();
}

const files = sourceFiles(modulesDir).map((file) => ({ file, code: readFileSync(file, 'utf8') }));
const graph = moduleGraph(files);

describe('module import direction', () => {
  const at = (...parts: string[]) => path.join(modulesDir, ...parts);

  it('finds the modules', () => {
    expect([...graph.keys()]).toEqual(expect.arrayContaining(['accounts', 'premium', 'billing', 'ebarimt']));
  });

  it('sees an import by any form, a type-only one included, and keeps imports inside a module out', () => {
    const code = [
      "import { a } from '../premium/a.js';",
      "import type { B } from '../billing/b.js';",
      "import '../console/tables.js';",
      "const lazy = await import('../family/c.js');",
      "export { d } from '../vouchers/d.js';",
      "import { e } from './e.js';",
      "import { f } from '../../lib/f.js';",
      "import { g } from '@tunes/sandboxes/gateway';",
    ].join('\n');
    expect(moduleImports(at('ebarimt', 'x.ts'), code).map(({ to }) => to)).toEqual([
      'premium',
      'billing',
      'console',
      'family',
      'vouchers',
      SANDBOX_PACKAGE,
    ]);
  });

  it('catches a two-way pair, a longer cycle and a product module that reaches a sandbox', () => {
    const made = moduleGraph([
      { file: at('premium', 'a.ts'), code: "import '../ebarimt/x.js'; import '../sandbox-qpay/y.js';" },
      { file: at('ebarimt', 'x.ts'), code: "import type { A } from '../premium/a.js';" },
      { file: at('family', 'f.ts'), code: "import '../vouchers/v.js';" },
      { file: at('vouchers', 'v.ts'), code: "import '../content/c.js';" },
      { file: at('content', 'c.ts'), code: "import '../family/f.js';" },
      { file: at('sandbox-qpay', 'y.ts'), code: "import '../premium/a.js';" },
      { file: at('billing', 'b.ts'), code: "const s = await import('@tunes/sandboxes');" },
    ]);
    expect(twoWayPairs(made)).toEqual([
      'ebarimt ↔ premium (ebarimt/x.ts: ../premium/a.js; premium/a.ts: ../ebarimt/x.js)',
      'premium ↔ sandbox-qpay (premium/a.ts: ../sandbox-qpay/y.js; sandbox-qpay/y.ts: ../premium/a.js)',
    ]);
    expect(longerCycles(made)).toEqual(['content → family → vouchers → content']);
    expect(sandboxReaches(made)).toEqual([
      'premium → sandbox-qpay (premium/a.ts: ../sandbox-qpay/y.js)',
      `billing → ${SANDBOX_PACKAGE} (billing/b.ts: ${SANDBOX_PACKAGE})`,
    ]);
  });

  it('no two modules import each other', () => {
    expect(
      twoWayPairs(graph),
      'Modules depend one way: move what both need down (providers, a lower module, lib/) or hand it over as a callback.',
    ).toEqual([]);
  });

  it('no longer cycle runs through the modules', () => {
    expect(longerCycles(graph), 'Modules depend one way, round a longer loop too.').toEqual([]);
  });

  it('no product module imports a sandbox', () => {
    expect(
      sandboxReaches(graph),
      'The sandboxes are their own workspace (apps/sandboxes), mounted by app.ts outside production only.',
    ).toEqual([]);
  });

  it('no sandbox lives among the modules, and nothing in the server imports one by name', () => {
    expect([...graph.keys()].filter(isSandboxModule)).toEqual([]);
    // src/sandboxes.ts loads the package by a name held in a variable, so a build never follows it.
    const named = sourceFiles(srcDir).flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(IMPORT)]
        .filter(
          ([, specifier = '']) => specifier.startsWith(SANDBOX_PACKAGE) || specifier.includes('sandboxes/'),
        )
        .map(([, specifier]) => `${path.relative(srcDir, file)}: ${specifier}`),
    );
    expect(named).toEqual([]);
  });
});
