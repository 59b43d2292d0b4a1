import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { makeTestApi, type TestApi } from '../../helpers/api';

/**
 * Bad input over a real socket (src-main/server/body.ts, content-encoding.ts, validation.ts, errors.ts): bytes that
 * are not UTF-8, NUL characters and lone surrogates, compressed bodies, headers too large. Each is answered with the
 * Error payload and nothing is stored.
 */

async function server(): Promise<{ api: TestApi; url: string; token: string }> {
  const api = await makeTestApi();
  const token = api.key('Acme');
  return { api, url: await api.listen(), token };
}

function post(url: string, token: string, body: Buffer | string, headers: Record<string, string> = {}) {
  return fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : new Uint8Array(body),
  });
}

async function tagNames(api: TestApi, token: string): Promise<string[]> {
  return (await api.call('GET', '/v1/tags', { token })).json().data.map((t: { name: string }) => t.name);
}

describe('text that is not text', () => {
  it('answers a JSON body that is not UTF-8 with 400 and stores nothing', async () => {
    const { api, url, token } = await server();
    // "Caf\xe9" in Latin-1: the é byte alone is not UTF-8.
    const latin1 = Buffer.concat([Buffer.from('{"name":"Caf'), Buffer.from([0xe9]), Buffer.from('"}')]);
    const res = await post(`${url}/v1/tags`, token, latin1);
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body).toMatchObject({ error: 'Bad Request', message: 'The request body is not valid UTF-8' });
    expect(body.requestId).toBe(res.headers.get('x-request-id'));
    expect(await tagNames(api, token)).toEqual([]);
    // The same on an upload route, whose JSON parser has a larger limit.
    const upload = await post(
      `${url}/v1/documents`,
      token,
      Buffer.concat([latin1.subarray(0, -2), Buffer.from('","content":"QQ=="}')]),
    );
    expect(upload.status).toBe(400);
    // UTF-8 (with a character outside the BMP) is stored as sent.
    expect((await post(`${url}/v1/tags`, token, JSON.stringify({ name: 'Café 🍰' }))).status).toBe(201);
    expect(await tagNames(api, token)).toEqual(['Café 🍰']);
  });

  it.each([
    ['a NUL character', '{"name":"vip\\u0000"}', 'name', /NUL/],
    ['a lone high surrogate', '{"name":"vip\\ud800"}', 'name', /lone surrogate/],
    ['a lone low surrogate', '{"name":"\\udc00vip"}', 'name', /lone surrogate/],
  ])('answers %s in a text field with 422 naming the field', async (_what, json, path, message) => {
    const { api, url, token } = await server();
    const res = await post(`${url}/v1/tags`, token, json);
    expect(res.status).toBe(422);
    const body = await res.json();
    expect(body.fields).toEqual([{ location: 'body', path, message: expect.stringMatching(message) }]);
    expect(body.description).toMatch(new RegExp(`^body\\.${path}: `));
    expect(await tagNames(api, token)).toEqual([]);
  });

  it('finds them at any depth and in keys, on every route', async () => {
    const { api, url, token } = await server();
    const customer = await post(
      `${url}/v1/customers`,
      token,
      '{"name":"Kunde","email":"k@example.com","address":{"city":"Wien\\u0000"},"tags":[{"id":"x","name":"\\ud83d"}]}',
    );
    expect(customer.status).toBe(422);
    expect((await customer.json()).fields.map((f: { path: string }) => f.path)).toEqual(['address.city', 'tags.0.name']);
    const key = await post(`${url}/v1/workflows/x0000000000/execute`, token, '{"triggerData":{"a\\u0000b":1}}');
    expect(key.status).toBe(422);
    expect((await key.json()).fields[0].message).toMatch(/^its name must not contain NUL/);
    // A query is not stored: a search for such text finds nothing.
    const query = await fetch(`${url}/v1/customers?q=a%00b`, { headers: { authorization: `Bearer ${token}` } });
    expect(query.status).toBe(200);
    expect((await api.call('GET', '/v1/customers', { token })).json().data).toEqual([]);
  });
});

describe('bodies nested without end', () => {
  it('answers JSON nested thousands of levels deep with 422 naming where, on every route, never a 500', async () => {
    const { api, url, token } = await server();
    const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
    for (const depth of [65, 5_000, 20_000]) {
      for (const [route, body] of [
        ['/v1/customers', `{"name":"Deep","note":${nested(depth)}}`],
        [
          '/v1/invoices',
          `{"noteDetails":{"type":"doc","content":[${'{"type":"p","content":['.repeat(depth)}${']}'.repeat(depth)}]}}`,
        ],
        ['/v1/workflows/x0000000000/execute', `{"triggerData":{"a":${nested(depth)}}}`],
      ] as const) {
        const res = await post(`${url}${route}`, token, body);
        expect(res.status, `${route} at depth ${depth}`).toBe(422);
        expect((await res.json()).fields[0].message).toMatch(/nests deeper than 64 levels/);
      }
    }
    // 64 levels are taken (the note is then refused as not text, by the contract, not by the depth).
    const ok = await post(`${url}/v1/customers`, token, `{"name":"Deep","note":${nested(63)}}`);
    expect(ok.status).toBe(422);
    expect((await ok.json()).fields[0].message).not.toMatch(/nests deeper/);
    expect((await api.call('GET', '/v1/customers', { token })).json().data).toEqual([]);
  });
});

describe('compressed bodies', () => {
  const json = JSON.stringify({ name: 'compressed' });

  it.each([
    ['gzip', zlib.gzipSync(json)],
    ['x-gzip', zlib.gzipSync(json)],
    ['deflate', zlib.deflateSync(json)],
    ['br', zlib.brotliCompressSync(json)],
    ['deflate, gzip', zlib.gzipSync(zlib.deflateSync(json))],
  ])('decodes a body in Content-Encoding %s', async (encoding, bytes) => {
    const { api, url, token } = await server();
    const res = await post(`${url}/v1/tags`, token, bytes, { 'content-encoding': encoding });
    expect(res.status, await res.clone().text()).toBe(201);
    expect(await tagNames(api, token)).toEqual(['compressed']);
  });

  it('answers another coding, a multipart body with a coding, and corrupt data with the Error payload', async () => {
    const { api, url, token } = await server();
    const compress = await post(`${url}/v1/tags`, token, json, { 'content-encoding': 'compress' });
    expect(compress.status).toBe(415);
    expect(await compress.json()).toMatchObject({
      error: 'Unsupported Media Type',
      message: 'A body in Content-Encoding compress is not accepted',
      requestId: compress.headers.get('x-request-id'),
    });
    const form = new FormData();
    form.append('file', new Blob([Buffer.from('%PDF-1.4')], { type: 'application/pdf' }), 'a.pdf');
    const multipart = await fetch(`${url}/v1/documents`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-encoding': 'gzip' },
      body: form,
    });
    expect(multipart.status).toBe(415);
    const corrupt = await post(`${url}/v1/tags`, token, Buffer.from('not gzip at all'), { 'content-encoding': 'gzip' });
    expect(corrupt.status).toBe(400);
    expect(await corrupt.json()).toMatchObject({ error: 'Bad Request', message: 'The request body could not be decoded' });
    expect(await tagNames(api, token)).toEqual([]);
  });

  it('applies the body limit to the decoded bytes: a zip bomb is 413 and the server carries on', async () => {
    const { api, url, token } = await server();
    // 64 MiB of JSON that compresses to about 64 KiB, against the API's 1 MiB limit.
    const bomb = zlib.gzipSync(
      Buffer.concat([Buffer.from('{"name":"'), Buffer.alloc(64 * 1024 * 1024, 0x61), Buffer.from('"}')]),
    );
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const res = await post(`${url}/v1/tags`, token, bomb, { 'content-encoding': 'gzip' });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ error: 'Payload Too Large' });
    expect((await post(`${url}/v1/tags`, token, json)).status).toBe(201);
    expect(await tagNames(api, token)).toEqual(['compressed']);
  });
});

describe('a request Node refuses itself', () => {
  it('answers headers too large with 431, the Error payload and a request id', async () => {
    const { url, token } = await server();
    const res = await fetch(`${url}/v1/tags`, { headers: { authorization: `Bearer ${token}`, 'x-padding': 'p'.repeat(20_000) } });
    expect(res.status).toBe(431);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const body = await res.json();
    expect(body).toEqual({
      error: 'Request Header Fields Too Large',
      message: 'The request headers are too large',
      description: expect.stringMatching(/^At most \d+ bytes of headers$/),
      requestId: res.headers.get('x-request-id'),
    });
    expect(body.requestId).toMatch(/^req_/);
    // The server answers the next request as usual.
    expect((await fetch(`${url}/v1/tags`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
  });
});
