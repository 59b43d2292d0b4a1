/**
 * The desktop host's DNS-rebinding defence over real HTTP: a request whose Host is not the server's own loopback
 * address is refused with the error payload before auth, routing or the web UI; `finops serve` does not check.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isOwnHost } from '../../../src-main/server/own-host';
import { type RunningServer, startServer } from '../../../src-main/server/start';
import { tmpDir } from '../../helpers/tmp';

const servers: RunningServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

async function serve(ownHostOnly: boolean): Promise<{ port: number }> {
  const dir = tmpDir('finops-own-host-');
  const webRoot = path.join(dir, 'web');
  fs.mkdirSync(webRoot);
  fs.writeFileSync(path.join(webRoot, 'index.html'), '<!doctype html><title>Finops Desk</title>');
  const server = await startServer({
    dataDir: path.join(dir, 'data'),
    ownHostOnly,
    webRoot,
    logLevel: 'silent',
    workflows: false,
    invoiceJobs: false,
    sync: false,
  });
  servers.push(server);
  return { port: Number(new URL(server.url).port) };
}

/** A GET with exactly the Host header given (`null`: none at all, as an HTTP/1.0 client may send). */
function get(port: number, urlPath: string, host: string | null): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: urlPath, method: 'GET', setHost: false }, (res) => {
      let body = '';
      res.on('data', (c) => {
        body += c;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    if (host !== null) req.setHeader('Host', host);
    req.on('error', reject);
    req.end();
  });
}

describe('isOwnHost', () => {
  it.each([
    ['127.0.0.1:4100', true],
    ['localhost:4100', true],
    ['LOCALHOST:4100', true],
    ['127.0.0.1:4101', false],
    ['127.0.0.1', false],
    ['evil.example:4100', false],
    ['127.0.0.1.evil.example:4100', false],
    ['[::1]:4100', false],
    [undefined, false],
  ])('%s → %s', (host, expected) => {
    expect(isOwnHost(host, 4100)).toBe(expected);
  });
});

describe('the own-Host check over HTTP', () => {
  it('answers its own address by IP and by localhost', async () => {
    const { port } = await serve(true);
    expect((await get(port, '/v1/health', `127.0.0.1:${port}`)).status).toBe(200);
    expect((await get(port, '/v1/health', `localhost:${port}`)).status).toBe(200);
  });

  it('refuses another Host with the error payload, on the API and on the web UI alike', async () => {
    const { port } = await serve(true);
    for (const urlPath of ['/v1/health', '/', '/customers']) {
      const res = await get(port, urlPath, `rebind.example:${port}`);
      expect(res.status, urlPath).toBe(403);
      const body = JSON.parse(res.body);
      expect(body).toMatchObject({ error: 'Forbidden', message: 'This server answers only its own address' });
      expect(body.description).toBe(`Host not allowed: rebind.example:${port}`);
      expect(body.requestId).toEqual(expect.any(String));
    }
  });

  it('never serves a request without a Host header (Node refuses an HTTP/1.1 one with 400 before the app)', async () => {
    const { port } = await serve(true);
    expect((await get(port, '/v1/health', null)).status).toBe(400);
  });

  it('is off for finops serve (no ownHostOnly): a proxy or a network name may front it', async () => {
    const { port } = await serve(false);
    expect((await get(port, '/v1/health', `finops.internal:${port}`)).status).toBe(200);
  });
});
