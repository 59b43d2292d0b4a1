import { describe, expect, it } from 'vitest';
import { knownOperations, operationKey } from '../../../src-shared/contract/origins';
import { makeTestApi } from '../../helpers/api';

type Doc = { paths: Record<string, Record<string, { 'x-finops-origin'?: string; 'x-finops-extension'?: boolean }>> };

/** Operations the spec or the hosted service names that this server does not serve yet (README "Not built yet"). */
const NOT_BUILT = new Set(['PUT /invoices/{}', 'POST /oauth/register']);

describe('route origins', () => {
  it('marks every operation of the OpenAPI document with its origin, extensions as such', async () => {
    const api = await makeTestApi();
    const doc = (await api.call('GET', '/v1/openapi.json')).json() as Doc;
    const seen = new Map<string, string>();
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const key = operationKey(method, path.replace(/^\/(v1|app)/, ''));
        expect(op['x-finops-origin'], key).toMatch(/^(spec|hosted|extension)$/);
        expect(op['x-finops-extension'] === true, key).toBe(op['x-finops-origin'] === 'extension');
        if (path.startsWith('/v1')) seen.set(key, op['x-finops-origin']!);
      }
    }
    expect(seen.get('GET /sync/changes')).toBe('extension');
    expect(seen.get('GET /customers')).toBe('spec');
    expect(seen.get('GET /tags')).toBe('hosted');
    // Every operation the spec and the hosted service name is served, under that origin (or listed as not built).
    const missing = knownOperations().filter((o) => !seen.has(o.key) && !NOT_BUILT.has(o.key) && !o.key.includes('/oauth/'));
    expect(missing).toEqual([]);
  });

  it('a spec-only server answers 404 (or 405) to every extension and serves the spec and hosted routes', async () => {
    const full = await makeTestApi();
    const doc = (await full.call('GET', '/v1/openapi.json')).json() as Doc;
    const api = await makeTestApi({ specOnly: true });
    const token = api.key('Acme');
    const extensions = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops)
        .filter(([, op]) => op['x-finops-extension'])
        .map(([method]) => ({ method: method.toUpperCase(), path: path.replace(/\{[^}]+\}/g, 'x1234567890') })),
    );
    expect(extensions.length).toBeGreaterThan(20);
    for (const e of extensions) {
      const res = await api.call(e.method, e.path, { token, body: e.method === 'GET' ? undefined : {} });
      // 404, or 405 where the path also matches an operation that is served with another method.
      expect([404, 405], `${e.method} ${e.path}`).toContain(res.statusCode);
    }
    expect((await api.call('GET', '/v1/tags', { token })).statusCode).toBe(200);
    expect((await api.call('GET', '/v1/customers', { token })).statusCode).toBe(200);
    expect((await api.call('GET', '/v1/transactions?statuses=excluded', { token })).statusCode).toBe(200);
    const specDoc = (await api.call('GET', '/v1/openapi.json')).json() as Doc;
    expect(Object.keys(specDoc.paths).some((p) => p.startsWith('/v1/sync'))).toBe(false);
  });
});
