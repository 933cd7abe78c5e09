import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/** The server's compression threshold (@fastify/compress `threshold`): smaller files go as they are. */
const COMPRESS_FROM_BYTES = 1024;

/**
 * Writes `<file>.br` (quality 11) and `<file>.gz` (level 9) beside each text file of the build;
 * the server sends them as they are (`preCompressed` in apps/server/src/plugins/web-app.ts).
 * On-the-fly compression uses Brotli quality 4 for speed: the shell's script is 15 % smaller this
 * way, about 80 ms less on Lighthouse's slow phone connection (performance.md).
 */
function precompress(): Plugin {
  let outDir = 'dist';
  let skip = false;
  return {
    name: 'tunes:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
      skip = Boolean(config.build.ssr); // the server's renderer is read from disk, never sent
    },
    writeBundle(_options, bundle) {
      if (skip) return;
      for (const file of Object.values(bundle)) {
        if (!/\.(js|css|html|svg|json)$/.test(file.fileName)) continue;
        const source = Buffer.from(file.type === 'chunk' ? file.code : file.source);
        if (source.length < COMPRESS_FROM_BYTES) continue;
        const target = path.join(outDir, file.fileName);
        writeFileSync(
          `${target}.br`,
          brotliCompressSync(source, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
              [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            },
          }),
        );
        writeFileSync(`${target}.gz`, gzipSync(source, { level: 9 }));
      }
    },
  };
}

/**
 * The operator console (`/admin`, decision 0020) is a build of its own (`vite build --mode admin`)
 * into the same `dist`: none of its modules can land in a listener chunk (the listener build's
 * `shell` group takes every module any entry imports at start), and the listener build stays
 * byte for byte what it was. It runs after the listener build, which empties `dist`.
 */
const ADMIN_MODE = 'admin';

/** `vite` (dev): `/admin` and `/admin/*` get the console's page, as the server does. */
function adminPages(): Plugin {
  return {
    name: 'tunes:admin-pages',
    apply: 'serve',
    configureServer(server) {
      server.middlewares.use((request, _response, next) => {
        const pathname = request.url?.split('?')[0] ?? '';
        if (pathname === '/admin' || pathname.startsWith('/admin/')) request.url = '/admin.html';
        next();
      });
    },
  };
}

export default defineConfig(({ isSsrBuild, mode }) => ({
  plugins: [react(), precompress(), adminPages()],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
    conditions: ['source', 'module', 'browser', 'development|production'],
  },
  build: {
    target: 'es2022',
    copyPublicDir: !isSsrBuild && mode !== ADMIN_MODE,
    // `SOURCEMAP=1 npx vite build` writes source maps, to see what a chunk holds (performance.md).
    sourcemap: process.env.SOURCEMAP === '1',
    cssCodeSplit: true,
    assetsInlineLimit: 2048,
    ...(mode === ADMIN_MODE
      ? {
          emptyOutDir: false,
          rolldownOptions: {
            input: fileURLToPath(new URL('./admin.html', import.meta.url)),
            output: { codeSplitting: { groups: [{ name: 'admin', tags: ['$initial'] }] } },
          },
        }
      : {
          rolldownOptions: {
            input: fileURLToPath(new URL('./index.html', import.meta.url)),
            output: {
              // Everything the entry imports statically in one chunk: it all loads on every page
              // anyway, and ten small chunks cost a round trip each on a slow phone (performance.md).
              codeSplitting: { groups: [{ name: 'shell', tags: ['$initial'] }] },
            },
          },
        }),
  },
  server: {
    proxy: {
      '/api': 'http://localhost:3000',
      '/dev': 'http://localhost:3000',
      '/sandbox-gateway': 'http://localhost:3000',
    },
  },
}));
