import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { openDatabase } from './db/database.js';
import { createDeps } from './deps.js';

/** The public API's OpenAPI document: every `/api` route, generated from its request schemas. */
export interface OpenApiDocument {
  openapi: string;
  info: Record<string, unknown>;
  paths: Record<string, unknown>;
  components?: Record<string, unknown>;
  [key: string]: unknown;
}

/**
 * Builds the application on a throw-away in-memory database (no migrations, no traffic) and
 * returns its OpenAPI document restricted to `/api`: the development tools and the sandbox
 * gateway's pages are not part of the public contract.
 */
export async function buildOpenApiDocument(): Promise<OpenApiDocument> {
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', WEB_DIST_DIR: '/nonexistent' });
  const handle = await openDatabase({ kind: 'pglite' });
  const deps = createDeps({ config, db: handle.db, dbKind: handle.kind });
  const app = await buildApp(deps, { logLevel: 'silent', sandboxes: false });
  try {
    await app.ready();
    const document = app.swagger() as OpenApiDocument;
    const paths = Object.fromEntries(
      Object.entries(document.paths ?? {})
        .filter(([route]) => route.startsWith('/api/') && !route.startsWith('/api/docs'))
        .sort(([a], [b]) => a.localeCompare(b)),
    );
    return { ...document, paths };
  } finally {
    await app.close();
    await deps.close();
    await handle.close();
  }
}
