import type { FastifyPluginAsync } from 'fastify';

/**
 * The built-in stand-ins of the card gateway, QPay and the tax authority's PosAPI live in a
 * workspace of their own (apps/sandboxes). The server names the package rather than importing
 * it, so a production build neither holds nor loads their code: app.ts asks for them only outside
 * production (security.md).
 */
const SANDBOXES_PACKAGE: string = '@tunes/sandboxes';

/** What `@tunes/sandboxes` exports: one Fastify plugin per provider, mounted under a prefix. */
export interface SandboxPlugins {
  gateway: FastifyPluginAsync;
  qpay: FastifyPluginAsync;
  ebarimt: FastifyPluginAsync;
}

/** Where each is mounted: the provider URLs of config.ts point there by default. */
const PREFIXES: Record<keyof SandboxPlugins, string> = {
  gateway: '/sandbox-gateway',
  qpay: '/sandbox-qpay',
  ebarimt: '/sandbox-ebarimt',
};

/** The sandboxes with their prefixes, loaded on the first call (development and tests only). */
export async function loadSandboxes(): Promise<[prefix: string, plugin: FastifyPluginAsync][]> {
  const plugins = (await import(SANDBOXES_PACKAGE)) as SandboxPlugins;
  return (Object.keys(PREFIXES) as (keyof SandboxPlugins)[]).map((name) => [PREFIXES[name], plugins[name]]);
}
