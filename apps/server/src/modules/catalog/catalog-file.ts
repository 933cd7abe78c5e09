import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ParsedContentImport } from '@tunes/shared/content';
import { parse as parseYaml } from 'yaml';
import {
  type CatalogFile,
  type CatalogProblem,
  catalogFileSchema,
  duplicateCodes,
  problemsOf,
} from './catalog-schema.js';

/** The catalog file was refused: each problem names its entry (`plans[2].price`). Nothing was written. */
export class CatalogRefused extends Error {
  override name = 'CatalogRefused';
  constructor(readonly problems: CatalogProblem[]) {
    super(problems.map((problem) => `${problem.path}: ${problem.message}`).join('\n'));
  }
}

/** JSON for `.json`, YAML for `.yaml`/`.yml`; the text's own syntax error is refused with its line. */
export function parseCatalogText(text: string, fileName: string): unknown {
  const extension = path.extname(fileName).toLowerCase();
  try {
    if (extension === '.json') return JSON.parse(text);
    if (extension === '.yaml' || extension === '.yml') return parseYaml(text);
  } catch (error) {
    const reason = (error as Error).message.split('\n')[0] ?? '';
    throw new CatalogRefused([{ path: '(file)', message: `is not valid ${extension.slice(1)}: ${reason}` }]);
  }
  throw new CatalogRefused([{ path: '(file)', message: 'must be a .json, .yaml or .yml file' }]);
}

/** The catalog checked against its schema (each problem named), or CatalogRefused. */
export function checkCatalog(input: unknown): CatalogFile {
  const parsed = catalogFileSchema.safeParse(input);
  const problems = [...(parsed.success ? [] : problemsOf(parsed.error)), ...duplicateCodes(input)];
  if (problems.length > 0 || !parsed.success) throw new CatalogRefused(problems);
  return parsed.data;
}

export async function readCatalogFile(file: string): Promise<unknown> {
  return parseCatalogText(await readFile(file, 'utf8'), file);
}

/** The demo catalog of development and tests (product.md §11), beside `src` and `dist` alike. */
export const DEMO_CATALOG_FILE = fileURLToPath(new URL('../../../catalog/demo.yaml', import.meta.url));

let demo: CatalogFile | undefined;

/** The demo catalog, read when first asked for: a production start never reads it. */
export function demoCatalog(): CatalogFile {
  demo ??= checkCatalog(parseCatalogText(readFileSync(DEMO_CATALOG_FILE, 'utf8'), DEMO_CATALOG_FILE));
  return demo;
}

/** The demo catalog's landing content (`content:landing-demo` seed, tests). */
export function demoContent(): ParsedContentImport {
  const { content } = demoCatalog();
  if (!content) throw new Error(`${DEMO_CATALOG_FILE} has no content`);
  return content;
}
