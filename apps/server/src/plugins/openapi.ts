import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

/**
 * OpenAPI generated from the route schemas; UI at /api/docs, JSON at /api/docs/json. The pages
 * are served outside production, and in production only when the operator sets API_DOCS=true
 * (security.md); the document itself is always built (`npm run docs:api`, `app.swagger()`).
 */
export const openapi = fp(async (app: FastifyInstance) => {
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Tunes API',
        description: 'The API behind the Tunes music-streaming subscription site.',
        version: '1.0.0',
      },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          // The built-in QPay sandbox's token request (development only).
          basic: { type: 'http', scheme: 'basic' },
          // The operator console's session (docs/console-api.md).
          operatorSession: { type: 'apiKey', in: 'cookie', name: 'tunes_op' },
        },
      },
    },
    transform: jsonSchemaTransform,
    hideUntagged: false,
  });
  const { config } = app.deps;
  if (config.API_DOCS ?? !config.isProduction) {
    await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });
  }
});
