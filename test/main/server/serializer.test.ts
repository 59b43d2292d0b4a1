import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildApp, createApp } from '../../../src-main/server/app';
import { registerRoute } from '../../../src-main/server/route';
import { contractSerializerCompiler, nullableAsFlag, ResponseContractViolation } from '../../../src-main/server/serializer';
import { type Db, openDatabase } from '../../../src-main/store/db';
import { defineRoute } from '../../../src-shared/contract/route';
import { makeTestApi } from '../../helpers/api';
import { tmpDir } from '../../helpers/tmp';

const Thing = z.object({ id: z.string(), kind: z.enum(['a', 'b']), count: z.number().int() });

/** A route whose handler answers what the test hands it, right or wrong. */
const thing = defineRoute({
  method: 'GET',
  path: '/thing',
  tag: 'test',
  summary: 'test route',
  scopes: [],
  public: true,
  responses: { 200: Thing },
});

const opened: { app: FastifyInstance; db: Db }[] = [];
afterEach(async () => {
  for (const { app, db } of opened.splice(0)) {
    await app.close();
    db.close();
  }
});

async function appAnswering(body: unknown, validateResponses: boolean) {
  const db = openDatabase(tmpDir('finops-ser-'));
  const app = await createApp({ db, logLevel: 'silent', validateResponses });
  await app.register(async (v1) => registerRoute(v1, thing, () => body as z.infer<typeof Thing>), { prefix: '/v1' });
  await app.ready();
  opened.push({ app, db });
  return app;
}

function compile(validate: boolean) {
  return contractSerializerCompiler({ validate })({ schema: Thing, method: 'GET', url: '/thing', httpStatus: '200' });
}

describe('compiled response serializers', () => {
  it('write only the properties the contract declares, in production and in tests alike', () => {
    const leaky = { id: 'x', kind: 'a', count: 1, team_id: 'secret', password_hash: 'h' };
    for (const validate of [false, true]) expect(JSON.parse(compile(validate)(leaky))).toEqual({ id: 'x', kind: 'a', count: 1 });
  });

  it('compile a recursive schema used with a description (a JSON value inside itself)', () => {
    const Json: z.ZodType<unknown> = z.lazy(() =>
      z.union([
        z.string(),
        z.number(),
        z.null(),
        z.array(Json.describe('an item')),
        z.record(z.string(), Json.describe('a value')),
      ]),
    );
    const Doc = z.object({ definition: Json.describe('the document') });
    const value = { definition: { a: [1, 'two', { b: null }] } };
    for (const validate of [false, true]) {
      const write = contractSerializerCompiler({ validate })({ schema: Doc, method: 'GET', url: '/doc', httpStatus: '200' });
      expect(JSON.parse(write(value))).toEqual(value);
    }
  });

  it('write nullable integers, enums, formatted strings and objects as null or as their value (no anyOf left)', () => {
    const Nullables = z.object({
      year: z.number().int().nullable(),
      state: z.enum(['pending', 'done']).nullable(),
      at: z.iso.datetime().nullable(),
      link: z.object({ id: z.string(), amount: z.number() }).nullable(),
      list: z.array(z.number().int()).nullable(),
    });
    const write = contractSerializerCompiler({ validate: false })({
      schema: Nullables,
      method: 'GET',
      url: '/n',
      httpStatus: '200',
    });
    const empty = { year: null, state: null, at: null, link: null, list: null };
    // Without the flag, fast-json-stringify would write a null integer as 0 and a null object as {}.
    expect(JSON.parse(write(empty))).toEqual(empty);
    const full = { year: 1998, state: 'done', at: '2026-11-23T08:00:00.000Z', link: { id: 'p', amount: 1.5 }, list: [1, 2] };
    expect(JSON.parse(write(full))).toEqual(full);
    expect(Nullables.parse(JSON.parse(write(full)))).toEqual(full);
    // What the serializer compiles has no anyOf left (each would run a validator per value written).
    const compiled = JSON.stringify(nullableAsFlag(z.toJSONSchema(Nullables, { target: 'draft-7', io: 'output' })));
    expect(compiled).not.toContain('anyOf');
    expect(compiled.match(/"nullable":true/g)).toHaveLength(5);
  });

  it('write a nullable reference whose target holds a nullable enum (the reference stays an anyOf)', () => {
    const Check = z
      .object({ source: z.enum(['file', 'ledger']).nullable(), at: z.number().int().nullable() })
      .meta({ id: 'Check' });
    const Batch = z.object({ balance: Check.nullable(), first: Check });
    const write = contractSerializerCompiler({ validate: false })({ schema: Batch, method: 'GET', url: '/b', httpStatus: '200' });
    for (const value of [
      { balance: null, first: { source: null, at: null } },
      { balance: { source: null, at: 3 }, first: { source: 'file', at: null } },
      { balance: { source: 'ledger', at: null }, first: { source: 'ledger', at: 1 } },
    ]) {
      expect(JSON.parse(write(value))).toEqual(value);
    }
  });

  it('in tests, check what the production serializer wrote against the zod schema and fail loudly', () => {
    const wrong = { id: 'x', kind: 'c', count: '7' };
    // fast-json-stringify alone writes it (coercing, not checking)...
    expect(JSON.parse(compile(false)(wrong))).toEqual({ id: 'x', kind: 'c', count: 7 });
    // ...the validating mode refuses it, naming the route and the field.
    expect(() => compile(true)(wrong)).toThrow(ResponseContractViolation);
    expect(() => compile(true)(wrong)).toThrow(/GET \/thing 200[\s\S]*kind/);
  });

  it('answers a response that breaks the contract with 500 when validating (tests), as it ships otherwise', async () => {
    const wrong = { id: 'x', kind: 'c', count: 7 };
    const testing = await appAnswering(wrong, true);
    const res = await testing.inject({ url: '/v1/thing' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toMatchObject({ error: 'Internal Server Error', message: 'The server failed to build its response' });
    expect(res.json().description).toMatch(/kind/);
    const shipping = await appAnswering(wrong, false);
    const shipped = await shipping.inject({ url: '/v1/thing' });
    expect(shipped.statusCode).toBe(200);
    expect(shipped.body).toBe('{"id":"x","kind":"c","count":7}');
  });

  it('writes the same bytes with and without validation for the real routes', async () => {
    const api = await makeTestApi();
    const token = api.key('Acme');
    const tag = (await api.call('POST', '/v1/tags', { token, body: { name: 'VIP' } })).json();
    const customer = (
      await api.call('POST', '/v1/customers', {
        token,
        body: { name: 'Zoë GmbH', email: 'z@example.com', countryCode: 'DE', tags: [{ id: tag.id }], note: 'say "hi"\n' },
      })
    ).json();
    const fast = await buildApp({ db: api.db, logLevel: 'silent', validateResponses: false });
    try {
      for (const url of [
        `/v1/customers/${customer.id}`,
        '/v1/customers?pageSize=5',
        '/v1/tags',
        `/v1/tags/${tag.id}`,
        '/v1/nope',
      ]) {
        const headers = { authorization: `Bearer ${token}`, 'x-request-id': 'same-id' };
        const checked = await api.app.inject({ url, headers });
        const quick = await fast.inject({ url, headers });
        expect(checked.statusCode, url).toBeLessThan(500);
        expect(quick.statusCode, url).toBe(checked.statusCode);
        expect(quick.body, url).toBe(checked.body);
      }
    } finally {
      await fast.close();
    }
  });
});
