import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { configureOperator, resetOperator } from '../../../src-main/operator/settings';
import { outboundFetch, ResponseTooLarge } from '../../../src-main/outbound/fetch';
import { OutboundRefused, useResolver } from '../../../src-main/outbound/policy';

/**
 * The outbound policy against real listeners on 127.0.0.1: loopback is refused unless the operator allowed it, by
 * address or by the name that resolves to it, a redirect to a refused address is not followed, and a body past the
 * cap stops being read.
 */
let wroteBeforeClose = 0;
const servers: http.Server[] = [];
let base = '';
let other = '';

function listen(handler: http.RequestListener): Promise<string> {
  const server = http.createServer(handler);
  servers.push(server);
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );
}

beforeAll(async () => {
  other = await listen((_req, res) => res.end('internal answer'));
  base = await listen((req, res) => {
    if (req.url === '/hello') return void res.end('hello');
    if (req.url === '/to-other') return void res.writeHead(302, { location: `${other}/` }).end();
    if (req.url === '/to-self') return void res.writeHead(302, { location: '/hello' }).end();
    if (req.url === '/loop') return void res.writeHead(302, { location: '/loop' }).end();
    if (req.url === '/declared') return void res.writeHead(200, { 'content-length': String(50 * 1024 * 1024) }).end();
    if (req.url === '/endless') {
      // Writes 64 KiB chunks as fast as the client takes them, up to 200 MiB; counts what left before the close.
      wroteBeforeClose = 0;
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      const chunk = Buffer.alloc(64 * 1024, 0x61);
      const pump = () => {
        while (wroteBeforeClose < 200 * 1024 * 1024) {
          wroteBeforeClose += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      res.on('close', () => {});
      pump();
      return;
    }
    res.writeHead(404).end();
  });
});

afterEach(() => {
  resetOperator();
  useResolver();
});
afterAll(() => Promise.all(servers.map((s) => new Promise((r) => s.close(r)))));

const port = (url: string) => new URL(url).port;

describe('outboundFetch', () => {
  it('refuses a listener on 127.0.0.1 by default and reaches it once the operator allows it', async () => {
    configureOperator({ allowPrivateHosts: [] });
    await expect(outboundFetch(`${base}/hello`, { maxBytes: 1024 })).rejects.toThrow(OutboundRefused);
    await expect(outboundFetch(`${base}/hello`, { maxBytes: 1024 })).rejects.toThrow(
      /127\.0\.0\.1 is a loopback address: refused/,
    );

    configureOperator({ allowPrivateHosts: ['127.0.0.1'] });
    const res = await outboundFetch(`${base}/hello`, { maxBytes: 1024 });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('hello');
  });

  it('an allowance taken back holds at once: no pooled connection made under it is used again', async () => {
    configureOperator({ allowPrivateHosts: ['127.0.0.1'] });
    const first = await outboundFetch(`${base}/hello`, { maxBytes: 1024 });
    expect(await first.text()).toBe('hello'); // the connection stays open, idle in the pool
    configureOperator({ allowPrivateHosts: [] });
    await expect(outboundFetch(`${base}/hello`, { maxBytes: 1024 })).rejects.toThrow(OutboundRefused);
  });

  it('an allowance with a port allows that port only', async () => {
    configureOperator({ allowPrivateHosts: [`127.0.0.1:${port(base)}`] });
    expect((await outboundFetch(`${base}/hello`, { maxBytes: 1024 })).status).toBe(200);
    await expect(outboundFetch(`${other}/`, { maxBytes: 1024 })).rejects.toThrow(OutboundRefused);
  });

  it('refuses a host name that resolves to loopback (the system resolver and a test DNS alike)', async () => {
    configureOperator({ allowPrivateHosts: [] });
    await expect(outboundFetch(`http://localhost:${port(base)}/hello`, { maxBytes: 1024 })).rejects.toThrow(
      /\(localhost resolves to it\)/,
    );
    useResolver(async () => [{ address: '127.0.0.1', family: 4 }]);
    await expect(outboundFetch(`http://rebound.example:${port(base)}/hello`, { maxBytes: 1024 })).rejects.toThrow(
      /127\.0\.0\.1 \(rebound\.example resolves to it\) is a loopback address/,
    );
    // IPv4-mapped IPv6 and the metadata address are refused the same way.
    useResolver(async () => [{ address: '::ffff:127.0.0.1', family: 6 }]);
    await expect(outboundFetch(`http://mapped.example:${port(base)}/`, { maxBytes: 1024 })).rejects.toThrow(OutboundRefused);
    await expect(outboundFetch('http://169.254.169.254/latest/meta-data/', { maxBytes: 1024 })).rejects.toThrow(
      /link-local address: refused/,
    );
  });

  it('follows a redirect only to an allowed address, and only as many as asked', async () => {
    configureOperator({ allowPrivateHosts: [`127.0.0.1:${port(base)}`] });
    // Not followed unless asked: the 302 comes back as it is.
    const manual = await outboundFetch(`${base}/to-other`, { maxBytes: 1024 });
    expect(manual.status).toBe(302);
    await expect(outboundFetch(`${base}/to-other`, { maxBytes: 1024, maxRedirects: 3 })).rejects.toThrow(
      /loopback address: refused/,
    );
    const same = await outboundFetch(`${base}/to-self`, { maxBytes: 1024, maxRedirects: 3 });
    expect(await same.text()).toBe('hello');
    await expect(outboundFetch(`${base}/loop`, { maxBytes: 1024, maxRedirects: 3 })).rejects.toThrow(/more than 3 redirects/);
    configureOperator({ allowPrivateHosts: ['127.0.0.1'] });
    await expect(outboundFetch(`${base}/to-other`, { maxBytes: 1024, maxRedirects: 3, sameOrigin: true })).rejects.toThrow(
      /another origin/,
    );
  });

  it('stops reading a body at the cap instead of reading it whole', async () => {
    configureOperator({ allowPrivateHosts: ['127.0.0.1'] });
    const cap = 1024 * 1024;
    const res = await outboundFetch(`${base}/endless`, { maxBytes: cap });
    await expect(res.read()).rejects.toThrow(ResponseTooLarge);
    await new Promise((r) => setTimeout(r, 200));
    // Socket buffers hold a few MiB at most: far from the 200 MiB the server would have sent.
    expect(wroteBeforeClose).toBeLessThan(32 * 1024 * 1024);

    const cut = await outboundFetch(`${base}/endless`, { maxBytes: cap });
    const { bytes, truncated } = await cut.read({ truncate: true });
    expect(truncated).toBe(true);
    expect(bytes.length).toBe(cap);

    const declared = await outboundFetch(`${base}/declared`, { maxBytes: cap });
    await expect(declared.read()).rejects.toThrow(/50 \* 1024|52428800 bytes, more than/);
  });
});
