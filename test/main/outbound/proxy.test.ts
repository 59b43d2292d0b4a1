import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { configureOperator, resetOperator } from '../../../src-main/operator/settings';
import { ProxyFailed } from '../../../src-main/outbound/connector';
import { outboundFetch, ResponseTooLarge } from '../../../src-main/outbound/fetch';
import { OutboundRefused, useResolver } from '../../../src-main/outbound/policy';
import { RemoteClient } from '../../../src-main/sync/remote-client';
import { type ConnectProxy, downProxyUrl, startConnectProxy } from './connect-proxy';

/**
 * The operator's proxy (docs/decisions/0195) with real parts on 127.0.0.1: a CONNECT proxy (connect-proxy.ts) and a
 * target server. The target is reached by a name the test resolver turns into 127.0.0.1 (allowed to the operator
 * here), since loopback named as such is always reached directly. HTTPS and certificates: trust.test.ts.
 */
const PROXY_VARS = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'NO_PROXY', 'no_proxy'];
const saved = Object.fromEntries(PROXY_VARS.map((n) => [n, process.env[n]]));

let target: http.Server;
let port = 0;
const hosts: string[] = [];
let proxy: ConnectProxy;

beforeAll(async () => {
  target = http.createServer((req, res) => {
    hosts.push(req.headers.host ?? '');
    if (req.url === '/hello') return void res.end('hello');
    if (req.url === '/to-self') return void res.writeHead(302, { location: '/hello' }).end();
    if (req.url === '/declared') return void res.writeHead(200, { 'content-length': String(50 * 1024 * 1024) }).end();
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  port = (target.address() as AddressInfo).port;
});
afterAll(() => new Promise((resolve) => target.close(resolve)));

beforeEach(async () => {
  for (const n of PROXY_VARS) delete process.env[n];
  hosts.length = 0;
  proxy = await startConnectProxy();
  configureOperator({ allowPrivateHosts: ['127.0.0.1'] });
  useResolver(async (host) => {
    if (['sync.example', 'files.example', 'localhost'].includes(host)) return [{ address: '127.0.0.1', family: 4 }];
    if (host === 'internal.example') return [{ address: '10.0.0.5', family: 4 }];
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  });
});
afterEach(async () => {
  for (const n of PROXY_VARS) {
    if (saved[n] === undefined) delete process.env[n];
    else process.env[n] = saved[n];
  }
  resetOperator();
  useResolver();
  await proxy.close();
});

const get = (url: string) => outboundFetch(url, { maxBytes: 1024 });

describe('through the operator proxy', () => {
  it('tunnels to the checked address, not the name, and reads the answer', async () => {
    // Direct first: the pool made without a proxy must not be reused once one is configured.
    expect(await (await get(`http://sync.example:${port}/hello`)).text()).toBe('hello');
    expect(proxy.tunnels).toEqual([]);

    process.env.HTTP_PROXY = proxy.url;
    const res = await get(`http://sync.example:${port}/hello`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('hello');
    expect(proxy.tunnels).toEqual([`127.0.0.1:${port}`]);
    // The target still learns which name was asked for.
    expect(hosts.at(-1)).toBe(`sync.example:${port}`);
  });

  it('https URLs take HTTPS_PROXY, with credentials from its URL', async () => {
    await proxy.close();
    proxy = await startConnectProxy({ credentials: 'ops:p w' });
    // A plain-http target with only HTTPS_PROXY set goes direct.
    process.env.HTTPS_PROXY = proxy.url;
    expect((await get(`http://sync.example:${port}/hello`)).status).toBe(200);
    expect(proxy.tunnels).toEqual([]);

    process.env.HTTP_PROXY = proxy.url;
    await expect(get(`http://sync.example:${port}/hello`)).rejects.toThrow(
      new RegExp(
        `the proxy ${proxy.url} \\(from \\$HTTP_PROXY\\) refused the tunnel to sync\\.example .*asks for credentials \\(407\\)`,
      ),
    );
    process.env.HTTP_PROXY = proxy.url.replace('http://', 'http://ops:p%20w@');
    expect(await (await get(`http://sync.example:${port}/hello`)).text()).toBe('hello');
    expect(proxy.tunnels).toEqual([`127.0.0.1:${port}`]);
  });

  it('NO_PROXY hosts go direct; the others still through the proxy', async () => {
    process.env.HTTP_PROXY = proxy.url;
    process.env.NO_PROXY = 'other.org, sync.example';
    expect(await (await get(`http://sync.example:${port}/hello`)).text()).toBe('hello');
    expect(proxy.tunnels).toEqual([]);
    expect(await (await get(`http://files.example:${port}/hello`)).text()).toBe('hello');
    expect(proxy.tunnels).toEqual([`127.0.0.1:${port}`]);
  });

  it('loopback named as such goes direct, even when the proxy is down', async () => {
    process.env.HTTP_PROXY = await downProxyUrl();
    expect(await (await get(`http://127.0.0.1:${port}/hello`)).text()).toBe('hello');
    expect(await (await get(`http://localhost:${port}/hello`)).text()).toBe('hello');
  });

  it('a target resolving to a refused address is refused before the proxy is asked', async () => {
    process.env.HTTP_PROXY = proxy.url;
    process.env.HTTPS_PROXY = proxy.url;
    await expect(get('https://internal.example/')).rejects.toThrow(OutboundRefused);
    await expect(get('http://internal.example/')).rejects.toThrow(
      /10\.0\.0\.5 \(internal\.example resolves to it\) is a private \(RFC 1918\) address: refused/,
    );
    await expect(get('http://169.254.169.254/latest/meta-data/')).rejects.toThrow(/link-local address: refused/);
    // Loopback the operator did not allow, by a name: refused too, although the proxy could have reached it.
    configureOperator({ allowPrivateHosts: [] });
    await expect(get(`http://sync.example:${port}/hello`)).rejects.toThrow(/127\.0\.0\.1 \(sync\.example resolves/);
    expect(proxy.tunnels).toEqual([]);
  });

  it('a proxy that is down is named in the error, up to the sync screen', async () => {
    const down = await downProxyUrl();
    process.env.HTTP_PROXY = down;
    const failed = await get(`http://sync.example:${port}/hello`).catch((err: unknown) => err);
    expect(failed).toBeInstanceOf(ProxyFailed);
    expect((failed as Error).message).toMatch(
      new RegExp(`^the proxy ${down} \\(from \\$HTTP_PROXY\\) did not answer: .*ECONNREFUSED`),
    );

    const client = new RemoteClient({
      baseUrl: `http://sync.example:${port}/v1`,
      credential: { token: async () => 'k' },
      attempts: 1,
    });
    await expect(client.request('GET', '/sync/changes')).rejects.toThrow(
      new RegExp(`no answer after 1 attempt\\(s\\) \\(ProxyFailed: the proxy ${down} .*ECONNREFUSED`),
    );
  });

  it('a proxy setting that is not a proxy URL is named', async () => {
    process.env.http_proxy = 'socks5://127.0.0.1:1080';
    await expect(get(`http://sync.example:${port}/hello`)).rejects.toThrow(
      /\$http_proxy "socks5:\/\/127\.0\.0\.1:1080": only http:\/\/ and https:\/\/ proxies/,
    );
  });

  it('redirects and the body cap work as without a proxy', async () => {
    process.env.HTTP_PROXY = proxy.url;
    const same = await outboundFetch(`http://sync.example:${port}/to-self`, { maxBytes: 1024, maxRedirects: 3 });
    expect(await same.text()).toBe('hello');
    expect((await get(`http://sync.example:${port}/to-self`)).status).toBe(302);
    const declared = await get(`http://sync.example:${port}/declared`);
    await expect(declared.read()).rejects.toThrow(ResponseTooLarge);
    expect(proxy.tunnels.length).toBeGreaterThan(0);
  });
});
