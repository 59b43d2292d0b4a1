import { describe, expect, it } from 'vitest';
import { isAppUrl, isSafeExternalUrl, isSignInUrl } from '../../../src-main/desktop/url-policy';

const APP = ['http://127.0.0.1:41873'];

describe('isAppUrl', () => {
  it.each([
    ['http://127.0.0.1:41873/', true],
    ['http://127.0.0.1:41873/customers?q=x#top', true],
    ['http://127.0.0.1:41873', true],
    ['http://127.0.0.1:41874/', false], // another port: another local program
    ['https://127.0.0.1:41873/', false], // another scheme is another origin
    ['http://localhost:41873/', false], // same machine, different origin
    ['http://127.0.0.1.evil.example:41873/', false],
    ['http://evil.example/?next=http://127.0.0.1:41873/', false],
    ['http://user:pw@127.0.0.1:41873/', false],
    ['file:///etc/passwd', false],
    ['javascript:alert(1)', false],
    ['data:text/html,<script>1</script>', false],
    ['devtools://devtools/bundled/inspector.html', false],
    ['not a url', false],
    ['', false],
  ])('%s → %s', (url, expected) => {
    expect(isAppUrl(url, APP)).toBe(expected);
  });

  it('accepts the dev server origin only when it is listed', () => {
    expect(isAppUrl('http://localhost:5173/', APP)).toBe(false);
    expect(isAppUrl('http://localhost:5173/', [...APP, 'http://localhost:5173'])).toBe(true);
  });

  it('trusts nothing when no origin is known yet', () => {
    expect(isAppUrl('http://127.0.0.1:41873/', [])).toBe(false);
  });
});

describe('isSafeExternalUrl', () => {
  it.each([
    ['https://example.com/docs', true],
    ['https://peppol.org/', true],
    ['http://example.com/', false], // unencrypted
    ['https://localhost/', false],
    ['https://127.0.0.1:4100/', false],
    ['file:///C:/Windows/System32/calc.exe', false],
    ['smb://evil/share', false],
    ['javascript:alert(1)', false],
    ['https://user:pw@example.com/', false],
    ['mailto:a@example.com', false],
    ['', false],
  ])('%s → %s', (url, expected) => {
    expect(isSafeExternalUrl(url)).toBe(expected);
  });
});

describe('isSignInUrl', () => {
  const request = (redirect = 'http://127.0.0.1:4711/callback', extra: Record<string, string> = {}) =>
    new URLSearchParams({
      response_type: 'code',
      client_id: 'desk',
      redirect_uri: redirect,
      code_challenge: 'abc',
      code_challenge_method: 'S256',
      state: 's',
      ...extra,
    }).toString();
  it.each([
    [`https://sync.example.com/v1/oauth/authorize?${request()}`, true],
    [`http://127.0.0.1:4100/v1/oauth/authorize?${request()}`, true], // a remote on this machine
    [`http://sync.example.com/v1/oauth/authorize?${request()}`, false], // unencrypted
    [`https://sync.example.com/v1/oauth/authorize?${request('https://evil.example/callback')}`, false],
    [`https://sync.example.com/v1/oauth/authorize?${request('http://127.0.0.1:4711/app/sync/oauth/callback')}`, false],
    [`https://sync.example.com/v1/oauth/authorize?${request(undefined, { code_challenge_method: 'plain' })}`, false],
    [`https://sync.example.com/v1/oauth/authorize?${request(undefined, { response_type: 'token' })}`, false],
    [`https://user:pw@sync.example.com/v1/oauth/authorize?${request()}`, false],
    ['https://docs.example.com/help', false],
    [`file:///etc/passwd?${request()}`, false],
    ['', false],
  ])('%s → %s', (url, expected) => {
    expect(isSignInUrl(url)).toBe(expected);
  });
});
