/**
 * The inbound e-mail callback (`POST /webhook/inbox/{address}`, also under /webhooks) over the real app: a mail
 * provider posts the raw message signed with the team's inbox secret; its attachments become inbox items once, however
 * often the provider retries. Unsigned, wrongly signed, stale and unknown-address calls are the same 401.
 */
import http from 'node:http';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { signWebhook } from '../../../../src-main/workflows/webhook-signature';
import { makeTestApi, type TestApi } from '../../../helpers/api';
import { cafePdf, composeMail, picture } from '../../../helpers/mail';

async function setup(): Promise<{ api: TestApi; token: string; path: string; secret: string }> {
  const api = await makeTestApi({ documents: { runner: false } });
  const token = api.key('Acme');
  const res = await api.call('POST', '/app/inbox-sources/webhook', { token });
  expect(res.statusCode, res.body).toBe(200);
  const { path, secret } = res.json() as { path: string; secret: string };
  return { api, token, path, secret };
}

function post(api: TestApi, url: string, raw: Buffer, headers: Record<string, string>) {
  return api.app.inject({ method: 'POST', url, payload: raw, headers: { 'content-type': 'message/rfc822', ...headers } });
}

function signed(secret: string, raw: Buffer, at = Math.floor(Date.now() / 1000)): Record<string, string> {
  return { 'x-finops-timestamp': String(at), 'x-finops-signature': signWebhook(secret, at, raw) };
}

describe('inbound e-mail callback', () => {
  it('takes a signed message once: attachments become inbox items, a retry adds nothing', async () => {
    const { api, token, path, secret } = await setup();
    expect(path).toMatch(/^\/webhook\/inbox\/[0-9a-f]{32}$/);
    const raw = await composeMail({
      messageId: '<hook-1@provider.example>',
      attachments: [
        { filename: 'cafe.pdf', content: await cafePdf() },
        { filename: 'photo.jpg', content: picture('jpeg', 'hook') },
        { filename: 'terms.txt', content: Buffer.from('terms') },
      ],
    });
    const first = await post(api, path, raw, signed(secret, raw));
    expect(first.statusCode, first.body).toBe(200);
    const body = first.json();
    expect(body.duplicate).toBe(false);
    expect(body.created.map((c: { fileName: string }) => c.fileName)).toEqual(['cafe.pdf', 'photo.jpg']);
    expect(body.skipped).toEqual([{ fileName: 'terms.txt', reason: expect.stringMatching(/PDF, PNG, JPEG/) }]);

    // The provider retries, here under the other prefix the spec names: the same mail, nothing new.
    const retry = await post(api, path.replace('/webhook/', '/webhooks/'), raw, signed(secret, raw));
    expect(retry.statusCode, retry.body).toBe(200);
    expect(retry.json()).toMatchObject({ duplicate: true, created: [] });

    const inbox = (await api.call('GET', '/v1/inbox', { token })).json();
    expect(inbox.data.map((i: { fileName: string }) => i.fileName).sort()).toEqual(['cafe.pdf', 'photo.jpg']);
    const sources = (await api.call('GET', '/app/inbox-sources', { token })).json();
    expect(sources.webhook).toEqual({ path, secretSet: true });
    expect(JSON.stringify(sources)).not.toContain(secret);
  });

  it('refuses unsigned, wrongly signed, stale and unknown-address calls alike', async () => {
    const { api, token, path, secret } = await setup();
    const raw = await composeMail({
      messageId: '<hook-2@provider.example>',
      attachments: [{ filename: 'a.png', content: picture('png', 'a') }],
    });
    const now = Math.floor(Date.now() / 1000);
    const cases: [string, string, Record<string, string>][] = [
      ['no signature', path, {}],
      ['another secret', path, signed('whsec_someone-else', raw)],
      ['another body', path, signed(secret, Buffer.concat([raw, Buffer.from(' ')]))],
      ['ten minutes old', path, signed(secret, raw, now - 600)],
      ['an unknown address', '/webhook/inbox/0123456789abcdef0123456789abcdef', signed(secret, raw)],
    ];
    for (const [what, url, headers] of cases) {
      const res = await post(api, url, raw, headers);
      expect(res.statusCode, what).toBe(401);
      expect(res.json().message, what).toBe('Webhook signature not accepted');
    }
    expect((await post(api, path, raw, {})).json().description).toMatch(/x-finops-timestamp and x-finops-signature are required/);
    expect((await api.call('GET', '/v1/inbox', { token })).json().data).toEqual([]);

    // A renewed secret: the old one no longer signs.
    const renewed = (await api.call('POST', '/app/inbox-sources/webhook', { token })).json();
    expect(renewed.path).toBe(path);
    expect((await post(api, path, raw, signed(secret, raw))).statusCode).toBe(401);
    expect((await post(api, path, raw, signed(renewed.secret, raw))).statusCode).toBe(200);

    // Turned off: the address answers like any unknown one.
    expect((await api.call('DELETE', '/app/inbox-sources/webhook', { token })).json().webhook).toBeNull();
    expect((await post(api, path, raw, signed(renewed.secret, raw))).statusCode).toBe(401);
  });

  it('answers a signed call that is not a raw message with 415 or 422, never 500', async () => {
    const { api, path, secret } = await setup();
    const json = Buffer.from('{"from":"a@b.c"}');
    const asJson = await api.app.inject({
      method: 'POST',
      url: path,
      payload: json,
      headers: { 'content-type': 'application/json', ...signed(secret, json) },
    });
    expect(asJson.statusCode).toBe(415);
    expect(asJson.json().message).toBe('Send the raw message as message/rfc822');
    const text = Buffer.from('just some words');
    const notMail = await post(api, path, text, signed(secret, text));
    expect(notMail.statusCode).toBe(422);
    expect(notMail.json().message).toBe('The body is not an e-mail message');
    const empty = await post(api, path, Buffer.alloc(0), signed(secret, Buffer.alloc(0)));
    expect(empty.statusCode).toBe(422);
  });

  it('answers an unknown address before reading the body: the 401 arrives while the body is still being sent', async () => {
    const { api, path, secret } = await setup();
    const url = new URL(await api.listen());
    for (const target of ['/webhook/inbox/0123456789abcdef0123456789abcdef', '/webhook/inbox/anything', path]) {
      // A chunked body whose end never comes; a stale timestamp makes the known address refuse as early.
      const headers = target === path ? signed(secret, Buffer.alloc(0), Math.floor(Date.now() / 1000) - 3600) : {};
      const status = await new Promise<number>((resolve, reject) => {
        const req = http.request(
          {
            host: url.hostname,
            port: url.port,
            method: 'POST',
            path: target,
            headers: { 'content-type': 'message/rfc822', 'content-encoding': 'gzip', ...headers },
          },
          (res) => {
            res.resume();
            req.destroy();
            resolve(res.statusCode!);
          },
        );
        req.on('error', () => {});
        setTimeout(() => reject(new Error(`no answer to ${target} before the body ended`)), 5_000).unref();
        req.write(zlib.gzipSync(Buffer.alloc(1024 * 1024)));
      });
      expect(status, target).toBe(401);
    }
  });

  it('reads a signed compressed message (decoded into the signature first), and refuses one inflating past the limit', async () => {
    const { api, path, secret } = await setup();
    const url = await api.listen();
    const at = Math.floor(Date.now() / 1000);
    const bomb = zlib.gzipSync(Buffer.alloc(40 * 1024 * 1024 - 1024, 0x61), { level: 9 });
    const wrong = await fetch(`${url}${path}`, {
      method: 'POST',
      body: bomb,
      headers: {
        'content-type': 'message/rfc822',
        'content-encoding': 'gzip',
        'x-finops-timestamp': String(at),
        'x-finops-signature': signWebhook('whsec_not-the-secret', at, Buffer.from('x')),
      },
    });
    expect(wrong.status).toBe(401);
    // Signed with the secret, the same coding is read: a compressed mail arrives whole.
    const raw = await composeMail({
      messageId: '<hook-gz@provider.example>',
      attachments: [{ filename: 'b.png', content: picture('png', 'b') }],
    });
    const ok = await fetch(`${url}${path}`, {
      method: 'POST',
      body: zlib.gzipSync(raw),
      headers: { 'content-type': 'message/rfc822', 'content-encoding': 'gzip', ...signed(secret, raw) },
    });
    expect(ok.status, await ok.clone().text()).toBe(200);
    expect((await ok.json()).created).toHaveLength(1);
    // A signed body that inflates past the limit is 413, decoding stopped there.
    const huge = zlib.gzipSync(Buffer.alloc(41 * 1024 * 1024, 0x61));
    const tooLarge = await fetch(`${url}${path}`, {
      method: 'POST',
      body: huge,
      headers: {
        'content-type': 'message/rfc822',
        'content-encoding': 'gzip',
        ...signed(secret, Buffer.alloc(41 * 1024 * 1024, 0x61)),
      },
    });
    expect(tooLarge.status).toBe(413);
  });
});
