import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { RouteContract } from '../../src-shared/contract/route';
import { ALL_SCOPES } from '../../src-shared/contract/scopes';
import { CONTRACT_VERSION } from '../version';
import { acceptsNoBody } from './route';

/**
 * The OpenAPI 3.1 document is generated from the registered contract routes (their zod schemas), so it cannot
 * drift from what the server validates. Served at /v1/openapi.json, with a human reference at /v1/docs.
 *
 * Every schema the contract names (`.meta({ id })`) is a component; operations point at it with `$ref`. A request
 * schema that differs from its response form is named `…Input` (fastify-type-provider-zod's convention). Only the
 * components the operations reach are emitted.
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
    transform: (input) => {
      const out = jsonSchemaTransform(input);
      const contract = (input.route.config as { contract?: RouteContract } | undefined)?.contract;
      return contract && !out.schema.hide ? { ...out, schema: describeRequest(out.schema as Json, contract) } : out;
    },
    transformObject: (input) => {
      const document = jsonSchemaTransformObject(input) as OpenApiDocument;
      markOptionalBodies(document);
      return keepReachableComponents(document);
    },
  });
  await app.register(swaggerUi, { routePrefix: '/v1/docs', uiConfig: { deepLinking: true } });
}

type Json = Record<string, unknown>;
interface OpenApiDocument extends Json {
  paths?: Record<string, Record<string, Json & { requestBody?: Json }>>;
  components?: Json & { schemas?: Record<string, unknown> };
}

/** Carries "the body may be left out" from a route to its operation; replaced by `requestBody.required: false`. */
const OPTIONAL_BODY = 'x-finops-optional-body';

/** A zod schema that only the OpenAPI document shows (an upload form, a header): plain JSON Schema, inputs. */
function documentOnly(schema: z.ZodType): Json {
  const { $schema: _, ...json } = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' });
  return json;
}

/** Describes what the contract's schemas alone cannot: each upload form, the headers read, an optional body. */
function describeRequest(schema: Json, contract: RouteContract): Json {
  const described: Json = { ...schema };
  if (contract.bodyForms && schema.body) {
    const content: Record<string, { schema: unknown }> = {};
    for (const type of contract.consumes ?? ['application/json']) {
      const form = contract.bodyForms[type];
      content[type] = { schema: form ? documentOnly(form) : schema.body };
    }
    described.body = { content };
  }
  if (contract.documentedHeaders) described.headers = documentOnly(contract.documentedHeaders);
  if (acceptsNoBody(contract)) described[OPTIONAL_BODY] = true;
  return described;
}

function markOptionalBodies(document: OpenApiDocument): void {
  for (const operations of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(operations)) {
      if (!operation[OPTIONAL_BODY]) continue;
      delete operation[OPTIONAL_BODY];
      if (operation.requestBody) operation.requestBody.required = false;
    }
  }
}

const COMPONENT_REF = '#/components/schemas/';

/**
 * The named schemas the document's operations reach, directly or through other components. The zod registry holds
 * every named schema the process loaded (and each in both an input and an output form); a client generator should
 * see only those the API uses.
 */
function keepReachableComponents(document: OpenApiDocument): OpenApiDocument {
  const all = document.components?.schemas ?? {};
  const reached = new Set<string>();
  const pending = refsIn(document.paths);
  while (pending.length > 0) {
    const name = pending.pop() as string;
    if (reached.has(name) || !(name in all)) continue;
    reached.add(name);
    pending.push(...refsIn(all[name]));
  }
  const schemas = Object.fromEntries(
    Object.keys(all)
      .filter((name) => reached.has(name))
      .sort()
      .map((name) => [name, all[name]]),
  );
  return { ...document, components: { ...document.components, schemas } };
}

function refsIn(value: unknown): string[] {
  const names: string[] = [];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) for (const item of v) walk(item);
    else if (v && typeof v === 'object') {
      for (const [key, child] of Object.entries(v)) {
        if (key === '$ref' && typeof child === 'string' && child.startsWith(COMPONENT_REF))
          names.push(child.slice(COMPONENT_REF.length));
        else walk(child);
      }
    }
  };
  walk(value);
  return names;
}
