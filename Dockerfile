# syntax=docker/dockerfile:1
# The production image: build in one stage, run the built server as a non-root user in another.
# Not built on the project's own machine (no container engine runs there; docs/operations.md).
# Node.js 24, the current LTS: `npm test` runs the API's integration layer on the same 24.21
# (scripts/test.mjs, PRODUCTION_NODE) besides the machine's own Node.js.

FROM node:24.21-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/shared/package.json packages/shared/
COPY apps/server/package.json apps/server/
COPY apps/sandboxes/package.json apps/sandboxes/
COPY apps/web/package.json apps/web/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:24.21-bookworm-slim AS run
ENV NODE_ENV=production \
    PORT=3000 \
    DATA_DIR=/data \
    WEB_DIST_DIR=/app/apps/web/dist
WORKDIR /app
COPY --from=build --chown=node:node /app/package.json ./
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/packages/shared/package.json ./packages/shared/package.json
COPY --from=build --chown=node:node /app/packages/shared/dist ./packages/shared/dist
COPY --from=build --chown=node:node /app/apps/server/package.json ./apps/server/package.json
COPY --from=build --chown=node:node /app/apps/server/dist ./apps/server/dist
# The demo catalog (SEED_DEMO_DATA, and an example for `npm run admin -- catalog:import`).
COPY --from=build --chown=node:node /app/apps/server/catalog ./apps/server/catalog
COPY --from=build --chown=node:node /app/apps/web/dist ./apps/web/dist
COPY --from=build --chown=node:node /app/apps/web/dist-ssr ./apps/web/dist-ssr
# Nothing of apps/sandboxes: the server loads the sandboxes only outside production
# (apps/server/src/sandboxes.ts), so the image holds none of their code.
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+process.env.PORT+'/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# The V8 flags of scripts/lib/server-node-flags.mjs (a larger young generation; docs/performance.md).
CMD ["node", "--max-semi-space-size=128", "apps/server/dist/server.js"]
