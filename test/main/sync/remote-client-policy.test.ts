import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staticCredential } from '../../../src-main/sync/credentials';
import { endpoints } from '../../../src-main/sync/oauth-sign-in';
import { RemoteClient, RemoteUnavailable } from '../../../src-main/sync/remote-client';

/**
 * The sync client under the outbound policy, against listeners on loopback: a redirect to another origin is not
 * followed (the credential never reaches it), an answer past the cap is not read whole, and OAuth metadata naming
 * endpoints on another origin is not trusted.
 */
const servers: http.Server[] = [];
const elsewhereSeen: (string | undefined)[] = [];
let remote = '';
let elsewhere = '';

function listen(handler: http.RequestListener): Promise<string> {
  const s = http.createServer(handler);
  servers.push(s);
  return new Promise((r) => s.listen(0, '127.0.0.1', () => r(`http://127.0.0.1:${(s.address() as AddressInfo).port}`)));
}

beforeAll(async () => {
  elsewhere = await listen((req, res) => {
    elsewhereSeen.push(req.headers.authorization);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[]}');
  });
  remote = await listen((req, res) => {
    if (req.url === '/v1/moved') return void res.writeHead(307, { location: `${elsewhere}/v1/tags` }).end();
    if (req.url === '/v1/here') return void res.writeHead(307, { location: '/v1/tags' }).end();
    if (req.url === '/v1/tags') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[]}');
    if (req.url === '/v1/huge') {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(1024 * 1024, 0x20);
      let sent = 0;
      const pump = () => {
        while (sent < 256) {
          sent++;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      return void pump();
    }
    if (req.url === '/.well-known/oauth-authorization-server') {
      return void res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ authorization_endpoint: `${elsewhere}/authorize`, token_endpoint: `${elsewhere}/token` }));
    }
    res.writeHead(404).end();
  });
});
afterAll(() => Promise.all(servers.map((s) => new Promise((r) => s.close(r)))));

describe('the sync client through the outbound policy', () => {
  const client = () =>
    new RemoteClient({
      baseUrl: `${remote}/v1`,
      credential: staticCredential('remote-secret'),
      attempts: 1,
      maxBytes: 4 * 1024 * 1024,
    });

  it('follows a redirect within the remote, and none to another origin (the credential stays with the remote)', async () => {
    expect((await client().request('GET', '/here')).status).toBe(200);
    await expect(client().request('GET', '/moved')).rejects.toThrow(RemoteUnavailable);
    await expect(client().request('GET', '/moved')).rejects.toThrow(/another origin/);
    expect(elsewhereSeen).toEqual([]);
  });

  it('stops reading an answer past its cap', async () => {
    await expect(client().request('GET', '/huge')).rejects.toThrow(/larger than the 4194304 bytes read/);
  });

  it("trusts OAuth metadata only for endpoints on the remote's own origin", async () => {
    const ends = await endpoints(`${remote}/v1`);
    expect(ends).toEqual({ authorize: `${remote}/v1/oauth/authorize`, token: `${remote}/v1/oauth/token` });
  });
});
