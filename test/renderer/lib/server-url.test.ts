import { describe, expect, it } from 'vitest';
import { checkApiKey, checkServerUrl } from '../../../src-renderer/lib/server-url';

describe('checkServerUrl', () => {
  it.each([
    ['http://127.0.0.1:4100', 'http://127.0.0.1:4100'],
    ['  http://127.0.0.1:4100/  ', 'http://127.0.0.1:4100'],
    ['http://127.0.0.1:4100/v1', 'http://127.0.0.1:4100'],
    ['https://finops.example.com/v1/', 'https://finops.example.com'],
    ['HTTP://LOCALHOST:4100', 'http://localhost:4100'],
  ])('accepts %s as %s', (input, origin) => {
    expect(checkServerUrl(input)).toEqual({ ok: true, origin });
  });

  it.each([
    ['', /Enter the address/],
    ['127.0.0.1:4100', /e\.g\. http:\/\/127\.0\.0\.1:4100/],
    ['localhost', /e\.g\. http:\/\/localhost/],
    ['http://', /not a web address/],
    ['ftp://example.com', /http:\/\/ or https:\/\//],
    ['javascript:alert(1)', /http:\/\/ or https:\/\//],
    ['http://user:key@127.0.0.1:4100', /API key in its own field/],
    ['http://127.0.0.1:4100/customers', /without a path/],
    ['http://127.0.0.1:4100/?key=x', /without \? or #/],
  ])('refuses %s', (input, message) => {
    const r = checkServerUrl(input);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.message).toMatch(message);
  });
});

describe('checkApiKey', () => {
  it('trims and refuses empty keys or keys with spaces', () => {
    expect(checkApiKey('  finops_abc  ')).toEqual({ ok: true, key: 'finops_abc' });
    expect(checkApiKey('').ok).toBe(false);
    expect(checkApiKey('finops_a b').ok).toBe(false);
  });
});
