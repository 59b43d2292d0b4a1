import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { makeTestApi, type TestApi } from '../../helpers/api';
import { LAWFUL_BUYER_ADDRESS, makeTeamLawful } from '../../helpers/lawful-team';

/** Request bodies by media type (src-main/server/body.ts, docs/decisions/0014-request-bodies.md). */

async function tagOf(api: TestApi, token: string): Promise<string> {
  const res = await api.call('POST', '/v1/tags', { token, body: { name: `t-${Math.random()}` } });
  expect(res.statusCode).toBe(201);
  return res.json().id as string;
}

const send = (api: TestApi, method: string, url: string, headers: Record<string, string>, payload?: string) =>
  api.app.inject({ method: method as 'GET', url, headers, ...(payload !== undefined ? { payload } : {}) });

describe('request bodies', () => {
  it('accepts a DELETE with Content-Type: application/json and no body (clients that set it on every request)', async () => {
    const api = await makeTestApi();
    const token = api.key('Acme');
    const id = await tagOf(api, token);
    const res = await send(api, 'DELETE', `/v1/tags/${id}`, {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
    });
    expect(res.statusCode).toBe(200);
    expect((await api.call('GET', `/v1/tags/${id}`, { token })).statusCode).toBe(404);
  });

  it('accepts an empty body of any media type, on a GET too', async () => {
    const api = await makeTestApi();
    const token = api.key('Acme');
    const id = await tagOf(api, token);
    const auth = { authorization: `Bearer ${token}` };
    const get = await send(api, 'GET', '/v1/tags', { ...auth, 'content-type': 'application/json', 'content-length': '0' });
    expect(get.statusCode).toBe(200);
    const del = await send(api, 'DELETE', `/v1/tags/${id}`, {
      ...auth,
      'content-type': 'application/xml',
      'content-length': '0',
    });
    expect(del.statusCode).toBe(200);
  });

  it('still parses a body that is present: valid JSON (with a charset) works, malformed JSON is 400', async () => {
    const api = await makeTestApi();
    const token = api.key('Acme');
    const auth = { authorization: `Bearer ${token}` };
    const ok = await send(
      api,
      'POST',
      '/v1/tags',
      { ...auth, 'content-type': 'application/json; charset=utf-8' },
      '{"name":"vip"}',
    );
    expect(ok.statusCode).toBe(201);
    expect(ok.json().name).toBe('vip');
    const bad = await send(api, 'POST', '/v1/tags', { ...auth, 'content-type': 'application/json' }, '{"name":');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: 'Bad Request', message: 'The request body is not valid JSON' });
  });

  it('answers an empty body where the route needs one with 422 naming the body, not 400', async () => {
    const api = await makeTestApi();
    const token = api.key('Acme');
    const res = await send(api, 'POST', '/v1/tags', { authorization: `Bearer ${token}`, 'content-type': 'application/json' });
    expect(res.statusCode).toBe(422);
    expect(res.json().description).toMatch(/^body/);
  });

  it.each([
    ['text/plain', 'name=vip'],
    ['application/x-www-form-urlencoded', 'name=vip'],
    ['application/xml', '<tag><name>vip</name></tag>'],
  ])('answers a %s body on a JSON route with 415 and the Error payload', async (type, payload) => {
    const api = await makeTestApi();
    const token = api.key('Acme');
    const res = await send(api, 'POST', '/v1/tags', { authorization: `Bearer ${token}`, 'content-type': type }, payload);
    expect(res.statusCode).toBe(415);
    expect(res.json()).toEqual({
      error: 'Unsupported Media Type',
      message: `A ${type} body is not accepted here`,
      description: 'Send the body as application/json',
      requestId: res.headers['x-request-id'],
    });
    expect((await api.call('GET', '/v1/tags', { token })).json().data).toEqual([]);
  });

  it('answers a body without Content-Type with 415', async () => {
    const api = await makeTestApi();
    const token = api.key('Acme');
    const res = await send(api, 'POST', '/v1/tags', { authorization: `Bearer ${token}` }, '{"name":"vip"}');
    expect(res.statusCode).toBe(415);
    expect(res.json().message).toBe('The body has no Content-Type');
  });

  it('checks the credential before the media type', async () => {
    const api = await makeTestApi();
    const res = await send(api, 'POST', '/v1/tags', { 'content-type': 'text/plain' }, 'x');
    expect(res.statusCode).toBe(401);
  });

  it('lets the OAuth token endpoint take forms and JSON, and answers another media type with 415 in its own error form', async () => {
    const api = await makeTestApi();
    const form = await send(
      api,
      'POST',
      '/v1/oauth/token',
      { 'content-type': 'application/x-www-form-urlencoded' },
      'grant_type=x',
    );
    const json = await send(api, 'POST', '/v1/oauth/token', { 'content-type': 'application/json' }, '{"grant_type":"x"}');
    for (const res of [form, json]) expect(res.json().error).toBe('unsupported_grant_type');
    const text = await send(api, 'POST', '/v1/oauth/token', { 'content-type': 'text/plain' }, 'grant_type=x');
    expect(text.statusCode).toBe(415);
    expect(text.json()).toMatchObject({ error: 'invalid_request', message: 'A text/plain body is not accepted here' });
  });

  it('documents the media types a route takes and its 415', async () => {
    const api = await makeTestApi();
    const doc = (await api.call('GET', '/v1/openapi.json')).json();
    expect(Object.keys(doc.paths['/v1/oauth/token'].post.requestBody.content)).toEqual([
      'application/x-www-form-urlencoded',
      'application/json',
    ]);
    expect(Object.keys(doc.paths['/v1/tags'].post.requestBody.content)).toEqual(['application/json']);
    expect(doc.paths['/v1/tags'].post.responses['415']).toBeDefined();
  });
});

type Doc = { paths: Record<string, Record<string, { requestBody?: { required?: boolean } }>> };

/** Whether an answer refuses the body itself for its shape (validation), as opposed to anything else. */
const refusesBody = (res: LightMyRequestResponse) =>
  res.statusCode === 422 && (res.json().fields ?? []).some((f: { location: string }) => f.location === 'body');

describe('a request without a body', () => {
  it('is taken as {} by every route whose body has no required field, and the document says so', async () => {
    // Two servers seeded alike take the same requests in the same order: one without a body, one with `{}`.
    const bare = await makeTestApi();
    const empty = await makeTestApi();
    const bareToken = bare.key('Acme');
    const emptyToken = empty.key('Acme');
    const doc = (await bare.call('GET', '/v1/openapi.json')).json() as Doc;
    const optional: string[] = [];
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(operations)) {
        // The OAuth endpoints answer in RFC 6749's error form (their required fields are checked by the grant).
        if (!op.requestBody || path.startsWith('/v1/oauth/')) continue;
        const url = path.replace(/\{[^}]+\}/g, 'x0000000000');
        const name = `${method.toUpperCase()} ${path}`;
        const withoutBody = await send(bare, method, url, { authorization: `Bearer ${bareToken}` });
        const withEmpty = await empty.call(method, url, { token: emptyToken, body: {} });
        expect(withoutBody.statusCode, `${name}: ${withoutBody.body}`).toBe(withEmpty.statusCode);
        // The document marks the body optional exactly where `{}` passes validation.
        expect(op.requestBody.required === false, name).toBe(!refusesBody(withEmpty));
        if (!refusesBody(withEmpty)) optional.push(name);
      }
    }
    expect(optional).toEqual(expect.arrayContaining(['POST /v1/invoices/{id}/send', 'POST /v1/invoices/{id}/remind']));
    expect(optional.length).toBeGreaterThan(20);
  });

  it('sends and reminds an invoice (every field of those bodies is optional)', async () => {
    const api = await makeTestApi();
    const token = api.key('Acme');
    makeTeamLawful(api.db, 'Acme');
    const auth = { authorization: `Bearer ${token}` };
    const customerId = (
      await api.call('POST', '/v1/customers', {
        token,
        body: { name: 'Kunde', email: 'k@example.com', ...LAWFUL_BUYER_ADDRESS },
      })
    ).json().id;
    const id = (
      await api.call('POST', '/v1/invoices', {
        token,
        body: { customerId, lineItems: [{ name: 'Work', quantity: 1, price: 10 }] },
      })
    ).json().id;
    const sent = await send(api, 'POST', `/v1/invoices/${id}/send`, auth);
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().status).toBe('unpaid');
    const reminded = await send(api, 'POST', `/v1/invoices/${id}/remind`, { ...auth, 'content-type': 'application/json' });
    expect(reminded.statusCode, reminded.body).toBe(200);
    // A body that is there is still validated: JSON null is not "no body".
    const nullBody = await send(
      api,
      'POST',
      `/v1/invoices/${id}/remind`,
      { ...auth, 'content-type': 'application/json' },
      'null',
    );
    expect(nullBody.statusCode).toBe(422);
  });
});
