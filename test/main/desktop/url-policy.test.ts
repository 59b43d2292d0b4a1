import { describe, expect, it } from 'vitest';
import { isAppUrl, isSafeExternalUrl } from '../../../src-main/desktop/url-policy';

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
