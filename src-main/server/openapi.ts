import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { ALL_SCOPES } from '../../src-shared/contract/scopes';
import { CONTRACT_VERSION } from './version';

/**
 * The OpenAPI 3.1 document is generated from the registered contract routes (their zod schemas), so it cannot
 * drift from what the server validates. Served at /v1/openapi.json, with a human reference at /v1/docs.
 */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  const scopeMap = Object.fromEntries(ALL_SCOPES.map((s) => [s, s]));
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Finops Desk v1 API',
        version: CONTRACT_VERSION,
        description:
          'The v1 finance operations API served by Finops Desk. Every list uses an opaque cursor; every error uses the Error payload.',
      },
      servers: [{ url: '/' }],
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', description: 'API key (finops_…) or OAuth access token' },
          oauth2: {
            type: 'oauth2',
            flows: {
              authorizationCode: {
                authorizationUrl: '/v1/oauth/authorize',
                tokenUrl: '/v1/oauth/token',
                refreshUrl: '/v1/oauth/token',
                scopes: scopeMap,
              },
              clientCredentials: { tokenUrl: '/v1/oauth/token', scopes: scopeMap },
            },
          },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/v1/docs', uiConfig: { deepLinking: true } });
}
