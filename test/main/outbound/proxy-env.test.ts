import { describe, expect, it } from 'vitest';
import { BadProxySetting, proxyFor } from '../../../src-main/outbound/proxy-env';

/** Which proxy a connection goes through, from the operator's variables (a table; the real tunnel: proxy.test.ts). */
const target = (host: string, address: string, port = 443) => ({ host, address, port });
const via = (protocol: string, t: ReturnType<typeof target>, env: NodeJS.ProcessEnv) => {
  const choice = proxyFor(protocol, t, env);
  return choice ? `${choice.url.href} ${choice.variable}` : 'direct';
};

describe('proxyFor', () => {
  const pub = target('sync.example.com', '93.184.216.34');

  it.each([
    [{}, 'direct'],
    [{ HTTPS_PROXY: 'http://proxy.corp:3128' }, 'http://proxy.corp:3128/ HTTPS_PROXY'],
    [{ https_proxy: 'http://lower:1', HTTPS_PROXY: 'http://upper:2' }, 'http://lower:1/ https_proxy'],
    [{ HTTPS_PROXY: '', HTTP_PROXY: 'http://proxy.corp:8080' }, 'http://proxy.corp:8080/ HTTP_PROXY'],
    [{ HTTPS_PROXY: 'proxy.corp:3128' }, 'http://proxy.corp:3128/ HTTPS_PROXY'],
    [{ HTTPS_PROXY: 'https://u:p@proxy.corp' }, 'https://u:p@proxy.corp/ HTTPS_PROXY'],
  ])('https with %o → %s', (env, expected) => {
    expect(via('https:', pub, env)).toBe(expected);
  });

  it('http URLs use HTTP_PROXY only, never HTTPS_PROXY', () => {
    expect(via('http:', { ...pub, port: 80 }, { HTTPS_PROXY: 'http://s:1' })).toBe('direct');
    expect(via('http:', { ...pub, port: 80 }, { HTTPS_PROXY: 'http://s:1', http_proxy: 'http://h:2' })).toBe(
      'http://h:2/ http_proxy',
    );
  });

  const proxy = { HTTPS_PROXY: 'http://proxy.corp:3128' };
  it.each([
    ['*', pub, 'direct'],
    ['example.com', pub, 'direct'],
    ['.example.com', pub, 'direct'],
    ['*.example.com', pub, 'direct'],
    ['EXAMPLE.COM.', pub, 'direct'],
    ['ample.com', pub, 'proxy'],
    ['other.org, example.com', pub, 'direct'],
    ['other.org example.com', pub, 'direct'],
    ['sync.example.com:443', pub, 'direct'],
    ['sync.example.com:8443', pub, 'proxy'],
    ['93.184.216.0/24', pub, 'direct'],
    ['93.184.216.34', pub, 'direct'],
    ['93.184.217.0/24', pub, 'proxy'],
    ['10.0.0.0/8', target('nas.corp', '10.1.2.3'), 'direct'],
    ['fd00::/8', target('nas.corp', 'fd00::7'), 'direct'],
    ['[fd00::7]:443', target('nas.corp', 'fd00::7'), 'direct'],
    ['fd00::7', target('nas.corp', 'fd00::8'), 'proxy'],
    ['', target('localhost', '127.0.0.1'), 'direct'],
    ['', target('api.localhost', '127.0.0.1'), 'direct'],
    ['', target('127.0.0.5', '127.0.0.5'), 'direct'],
    ['', target('[::1]', '::1'), 'direct'],
    // A name that resolves to loopback is not "named as loopback": it goes through the proxy (its address is checked).
    ['', target('rebound.example', '127.0.0.1'), 'proxy'],
  ])('NO_PROXY=%s, %o → %s', (noProxy, t, expected) => {
    const got = via('https:', t, { ...proxy, NO_PROXY: noProxy });
    expect(got === 'direct' ? 'direct' : 'proxy').toBe(expected);
  });

  it('no_proxy wins over NO_PROXY', () => {
    expect(via('https:', pub, { ...proxy, no_proxy: 'other.org', NO_PROXY: 'example.com' })).not.toBe('direct');
  });

  it.each(['socks5://proxy:1080', 'http://[bad'])('refuses the setting %s, naming the variable', (value) => {
    expect(() => proxyFor('https:', pub, { HTTPS_PROXY: value })).toThrow(BadProxySetting);
    expect(() => proxyFor('https:', pub, { HTTPS_PROXY: value })).toThrow(/\$HTTPS_PROXY/);
  });
});
