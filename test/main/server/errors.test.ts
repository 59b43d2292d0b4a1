import { describe, expect, it } from 'vitest';
import { makeTestApi } from '../../helpers/api';

describe('error payload and routing', () => {
  it('answers unknown routes with 404 and the error payload, never a stack', async () => {
    const api = await makeTestApi();
    const res = await api.call('GET', '/v1/no-such-thing');
    expect(res.statusCode).toBe(404);
    const body = res.json();
    expect(body).toMatchObject({ error: 'Not Found', requestId: res.headers['x-request-id'] });
    expect(res.body).not.toMatch(/at .*\.ts:\d+/);
  });

  it('answers a known path with the wrong method with 405 and Allow', async () => {
    const api = await makeTestApi();
    const res = await api.call('DELETE', '/v1/health');
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('GET');
    expect(res.json().error).toBe('Method Not Allowed');
  });

  it.each([
    ['POST', '/v1/forecast'],
    ['POST', '/v1/stress-tests'],
    ['POST', '/v1/webhooks'],
    ['GET', '/v1/webhooks'],
    ['PATCH', '/v1/webhooks/abc'],
    ['DELETE', '/v1/webhooks/abc'],
  ])('%s %s is absent in v1 (404 with the payload)', async (method, url) => {
    const api = await makeTestApi();
    const res = await api.call(method, url, {
      token: api.key('acme'),
      body: method === 'GET' || method === 'DELETE' ? undefined : {},
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ error: 'Not Found' });
  });

  it('echoes a valid X-Request-Id and replaces an unsafe one', async () => {
    const api = await makeTestApi();
    const ok = await api.call('GET', '/v1/health', { headers: { 'x-request-id': 'abc-123' } });
    expect(ok.headers['x-request-id']).toBe('abc-123');
    const bad = await api.call('GET', '/v1/health', { headers: { 'x-request-id': 'a b\u00e9<script>' } });
    expect(bad.headers['x-request-id']).toMatch(/^req_[0-9a-f]{24,}$/);
  });

  it('makes a distinct request id for every request', async () => {
    const api = await makeTestApi();
    const ids = new Set<string>();
    for (let i = 0; i < 20; i++) ids.add(String((await api.call('GET', '/v1/health')).headers['x-request-id']));
    expect(ids.size).toBe(20);
  });

  it('serves the OpenAPI 3.1 document and the reference page', async () => {
    const api = await makeTestApi();
    const doc = await api.call('GET', '/v1/openapi.json');
    expect(doc.statusCode).toBe(200);
    expect(doc.json().openapi).toBe('3.1.0');
    expect(Object.keys(doc.json().paths)).toContain('/v1/health');
    const page = await api.call('GET', '/v1/docs/');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
  });
});
