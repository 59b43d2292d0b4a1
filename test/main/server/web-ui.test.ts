import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveStaticFile } from '../../../src-main/server/web-ui';
import { UI_CONTENT_SECURITY_POLICY } from '../../../src-shared/csp';
import { makeTestApi } from '../../helpers/api';
import { tmpDir } from '../../helpers/tmp';

/** A tiny stand-in for the built UI: index.html, a hashed asset, a root file. */
function fakeBuild(): string {
  const root = tmpDir('finops-webroot-');
  fs.mkdirSync(path.join(root, 'assets'));
  fs.writeFileSync(path.join(root, 'index.html'), '<!doctype html><title>Finops Desk</title><div id="root"></div>');
  fs.writeFileSync(path.join(root, 'assets', 'index-abc123.js'), 'console.log(1)');
  fs.writeFileSync(path.join(root, 'favicon.svg'), '<svg/>');
  return root;
}

describe('web UI static files', () => {
  it('serves index.html at / with the CSP and no caching', async () => {
    const api = await makeTestApi({ webRoot: fakeBuild() });
    const res = await api.call('GET', '/');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.headers['content-security-policy']).toBe(UI_CONTENT_SECURITY_POLICY);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toContain('<div id="root">');
  });

  it('falls back to index.html for client-side paths (reload of /customers)', async () => {
    const api = await makeTestApi({ webRoot: fakeBuild() });
    for (const url of ['/customers', '/settings?x=1', '/customers/123/edit']) {
      const res = await api.call('GET', url);
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toContain('<div id="root">');
      expect(res.headers['content-security-policy']).toBe(UI_CONTENT_SECURITY_POLICY);
    }
  });

  it('serves built assets as files, hashed ones cached as immutable', async () => {
    const api = await makeTestApi({ webRoot: fakeBuild() });
    const js = await api.call('GET', '/assets/index-abc123.js');
    expect(js.statusCode).toBe(200);
    expect(js.body).toBe('console.log(1)');
    expect(js.headers['content-type']).toMatch(/javascript/);
    expect(js.headers['cache-control']).toMatch(/immutable/);
    const svg = await api.call('GET', '/favicon.svg');
    expect(svg.headers['content-type']).toMatch(/svg/);
    expect(svg.headers['cache-control']).not.toMatch(/immutable/);
  });

  it('never falls back under /v1, /app or /hooks: unknown API paths stay 404 with the Error payload', async () => {
    const api = await makeTestApi({ webRoot: fakeBuild() });
    for (const url of ['/v1', '/v1/', '/v1/no-such-thing', '/v1/customers/x/y/z', '/app/no-such-thing', '/hooks/nope']) {
      const res = await api.call('GET', url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toMatchObject({ error: 'Not Found' });
    }
  });

  it('keeps 404 (not 405) for other methods on unknown paths, and the API working', async () => {
    const api = await makeTestApi({ webRoot: fakeBuild() });
    const post = await api.call('POST', '/v1/forecast', { token: api.key('acme'), body: {} });
    expect(post.statusCode).toBe(404);
    const del = await api.call('DELETE', '/customers');
    expect(del.statusCode).toBe(404);
    const health = await api.call('GET', '/v1/health');
    expect(health.json()).toMatchObject({ status: 'ok' });
  });

  it('does not serve files outside the root', async () => {
    const root = fakeBuild();
    fs.writeFileSync(path.join(path.dirname(root), 'secret.txt'), 'nope');
    const api = await makeTestApi({ webRoot: root });
    for (const url of [
      '/../secret.txt',
      '/%2e%2e/secret.txt',
      '/assets/..%2f..%2fsecret.txt',
      '/%2e%2e%2f%2e%2e%2fetc%2fpasswd',
    ]) {
      const res = await api.call('GET', url);
      expect(res.body, url).not.toContain('nope');
      expect(res.body, url).not.toContain('root:');
    }
    fs.rmSync(path.join(path.dirname(root), 'secret.txt'));
  });

  it('resolveStaticFile names only files inside the root', () => {
    const root = fakeBuild();
    expect(resolveStaticFile(root, '/assets/index-abc123.js')).toBe(path.join('assets', 'index-abc123.js'));
    expect(resolveStaticFile(root, '/assets')).toBeNull();
    expect(resolveStaticFile(root, '/../../etc/passwd')).toBeNull();
    expect(resolveStaticFile(root, '/%00index.html')).toBeNull();
    expect(resolveStaticFile(root, '/%E0%A4%A')).toBeNull();
  });

  it('is absent when no webRoot is given (API-only server)', async () => {
    const api = await makeTestApi();
    expect((await api.call('GET', '/')).statusCode).toBe(404);
  });
});
