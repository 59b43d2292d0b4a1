/** The typed client over real HTTP on loopback: a small fastify app with contract routes, and the real v1 app. */
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { installErrorHandling, unprocessable } from '../../src-main/server/errors';
import { registerRoute } from '../../src-main/server/route';
import { ApiClientError, createApiClient, fillPath, serializeQuery } from '../../src-shared/api-client';
import { customerRoutes } from '../../src-shared/contract/customers';
import { healthRoutes } from '../../src-shared/contract/health';
import { defineRoute } from '../../src-shared/contract/route';
import { makeTestApi } from '../helpers/api';

const echo = defineRoute({
  method: 'POST',
  path: '/things/:group/:id',
  tag: 'test',
  summary: 'echo',
  scopes: [],
  public: true,
  params: z.object({ group: z.string(), id: z.string() }),
  query: z.object({ sort: z.array(z.string()).optional(), flag: z.string().optional(), n: z.string().optional() }),
  body: z.object({ name: z.string() }),
  responses: {
    201: z.object({
      params: z.any(),
      rawUrl: z.string(),
      auth: z.string().nullable(),
      key: z.string().nullable(),
      body: z.any(),
    }),
  },
});

const limited = defineRoute({
  method: 'GET',
  path: '/limited',
  tag: 'test',
  summary: '429 with Retry-After only in the header',
  scopes: [],
  public: true,
  responses: { 200: z.object({}) },
});

const apps: FastifyInstance[] = [];
afterEach(async () => {
  for (const a of apps.splice(0)) await a.close();
});

async function testServer(): Promise<string> {
  const app = Fastify();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandling(app);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('X-Request-Id', `req_${request.id}`);
  });
  await app.register(
    async (v1) => {
      registerRoute(v1, echo, ({ params, request, body }) => ({
        params,
        rawUrl: request.url,
        auth: request.headers.authorization ?? null,
        key: (request.headers['idempotency-key'] as string | undefined) ?? null,
        body,
      }));
      v1.get('/limited', async (_req, reply) =>
        reply.code(429).header('retry-after', '7').send({ error: 'Too Many Requests', message: 'slow down' }),
      );
      v1.get('/file', async (request, reply) =>
        reply
          .type('application/pdf')
          .send(Buffer.from([0x25, 0x50, 0x44, 0x46, 0xff, 0x00, request.headers.authorization ? 1 : 0])),
      );
      v1.get('/bad', async () => {
        throw unprocessable('The request does not match the schema', 'body.email: must be a valid email address');
      });
    },
    { prefix: '/v1' },
  );
  apps.push(app);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  return `http://127.0.0.1:${address.port}`;
}

describe('fillPath and serializeQuery', () => {
  it('encodes params and refuses a missing one', () => {
    expect(fillPath('/customers/:id', { id: 'a b/c' })).toBe('/customers/a%20b%2Fc');
    expect(() => fillPath('/customers/:id', {})).toThrow(/missing path parameter "id"/);
  });

  it('repeats keys for arrays and drops undefined and null', () => {
    expect(serializeQuery({ sort: ['name', 'asc'], q: 'acme & co', tab: undefined, x: null, n: 5, b: false })).toBe(
      'sort=name&sort=asc&q=acme+%26+co&n=5&b=false',
    );
  });
});

describe('createApiClient over HTTP', () => {
  it('fills params, sends repeated query keys, the bearer token, the idempotency key and the JSON body', async () => {
    const baseUrl = await testServer();
    const client = createApiClient({ baseUrl: `${baseUrl}/`, token: () => 'finops_test' });
    const res = await client.send(echo, {
      params: { group: 'g 1', id: '42' },
      query: { sort: ['name', 'desc'], flag: 'yes' },
      body: { name: 'Ünïcode' },
      idempotencyKey: 'k-1',
    });
    expect(res.status).toBe(201);
    expect(res.requestId).toMatch(/^req_/);
    expect(res.data).toEqual({
      params: { group: 'g 1', id: '42' },
      rawUrl: '/v1/things/g%201/42?sort=name&sort=desc&flag=yes',
      auth: 'Bearer finops_test',
      key: 'k-1',
      body: { name: 'Ünïcode' },
    });
  });

  it('turns an error answer into ApiClientError with the payload fields', async () => {
    const baseUrl = await testServer();
    const client = createApiClient({ baseUrl });
    const err = await client.call({ ...limited, path: '/bad' }).catch((e) => e);
    expect(err).toBeInstanceOf(ApiClientError);
    expect(err).toMatchObject({
      status: 422,
      error: 'Unprocessable Entity',
      message: 'The request does not match the schema',
      description: 'body.email: must be a valid email address',
    });
    expect(err.requestId).toMatch(/\S/);
  });

  it('reads retryAfterSeconds from Retry-After when the body lacks it', async () => {
    const baseUrl = await testServer();
    const err = await createApiClient({ baseUrl })
      .call(limited)
      .catch((e) => e);
    expect(err).toMatchObject({ status: 429, retryAfterSeconds: 7, message: 'slow down' });
  });

  it('reads a file answer as a Blob with its bytes and type, and its errors as ApiClientError', async () => {
    const baseUrl = await testServer();
    const client = createApiClient({ baseUrl, token: () => 'finops_test' });
    const blob = await client.file({ ...limited, path: '/file' });
    expect(blob.type).toBe('application/pdf');
    expect([...new Uint8Array(await blob.arrayBuffer())]).toEqual([0x25, 0x50, 0x44, 0x46, 0xff, 0x00, 1]);
    const err = await client.file({ ...limited, path: '/bad' }).catch((e) => e);
    expect(err).toMatchObject({ status: 422, message: 'The request does not match the schema' });
  });

  it('reports an unreachable server as status 0', async () => {
    const baseUrl = await testServer();
    await apps.pop()?.close();
    const err = await createApiClient({ baseUrl })
      .call(healthRoutes.get)
      .catch((e) => e);
    expect(err).toBeInstanceOf(ApiClientError);
    expect(err.status).toBe(0);
    expect(err.isNetworkError).toBe(true);
    expect(err.message).toContain(baseUrl);
  });
});

describe('against the real v1 app', () => {
  it('reads health without a token and gets 401 with the payload for customers without one', async () => {
    const api = await makeTestApi();
    const baseUrl = await api.listen();
    const client = createApiClient({ baseUrl });
    expect(await client.call(healthRoutes.get)).toMatchObject({ status: 'ok' });
    const err = await client.call(customerRoutes.list, { query: { pageSize: 1 } }).catch((e) => e);
    expect(err).toMatchObject({ status: 401, error: 'Unauthorized' });
    expect(err.requestId).toMatch(/\S/);
  });

  it('creates, pages with the sort tuple, patches and deletes a customer', async () => {
    const api = await makeTestApi();
    const baseUrl = await api.listen();
    const key = api.key('acme');
    const client = createApiClient({ baseUrl, token: () => key });
    const created = await client.send(customerRoutes.create, { body: { name: 'Zeta GmbH', email: 'ap@zeta.example' } });
    expect(created.status).toBe(201);
    await client.call(customerRoutes.create, { body: { name: 'Alpha Ltd' } });
    const page = await client.call(customerRoutes.list, { query: { sort: ['name', 'asc'], pageSize: 1 } });
    expect(page.data.map((c) => c.name)).toEqual(['Alpha Ltd']);
    expect(page.meta.hasNextPage).toBe(true);
    const next = await client.call(customerRoutes.list, {
      query: { sort: ['name', 'asc'], pageSize: 1, cursor: page.meta.cursor! },
    });
    expect(next.data.map((c) => c.name)).toEqual(['Zeta GmbH']);
    const patched = await client.call(customerRoutes.update, { params: { id: created.data.id }, body: { city: 'Berlin' } });
    expect(patched).toMatchObject({ name: 'Zeta GmbH', city: 'Berlin' });
    const bad = await client
      .call(customerRoutes.update, { params: { id: created.data.id }, body: { email: 'nope' } })
      .catch((e) => e);
    expect(bad).toMatchObject({ status: 422 });
    expect(bad.description).toMatch(/email/);
    expect(bad.fields).toEqual([{ location: 'body', path: 'email', message: 'must be a valid email address' }]);
    await client.call(customerRoutes.delete, { params: { id: created.data.id } });
    const gone = await client.call(customerRoutes.get, { params: { id: created.data.id } }).catch((e) => e);
    expect(gone).toMatchObject({ status: 404 });
  });
});
