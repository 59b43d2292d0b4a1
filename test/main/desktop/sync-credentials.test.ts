/** The checks on sync credentials coming from the page through the bridge, against a real (session) store. */
import { describe, expect, it } from 'vitest';
import {
  checkRemoteUrl,
  checkSecret,
  clearSyncCredential,
  hasSyncCredential,
  InvalidCredentialInput,
  setSyncCredential,
} from '../../../src-main/desktop/sync-credentials';
import { secretAccounts, sessionSecretStore } from '../../../src-main/infra/secret-store';

describe('sync credentials from the bridge', () => {
  it('stores a trimmed key under the remote origin, says it is there, removes it', async () => {
    const store = sessionSecretStore();
    const baseUrl = await setSyncCredential(store, 'https://Sync.Example.com/v1', '  finops_remote_key\n');
    expect(baseUrl).toBe('https://sync.example.com/v1');
    expect(await store.get(secretAccounts.syncToken('https://sync.example.com'))).toBe('finops_remote_key');
    expect(await hasSyncCredential(store, 'https://sync.example.com/v1/')).toBe(true);
    expect(await clearSyncCredential(store, 'https://sync.example.com/v1')).toBe(true);
    expect(await clearSyncCredential(store, 'https://sync.example.com/v1')).toBe(false);
    expect(await hasSyncCredential(store, 'https://sync.example.com/v1')).toBe(false);
  });

  it('accepts an OAuth grant as JSON and http to this machine only', async () => {
    const store = sessionSecretStore();
    await setSyncCredential(store, 'http://127.0.0.1:4100/v1', '{"kind":"oauth","accessToken":"a"}');
    expect(checkRemoteUrl('http://localhost:4100/v1').account).toBe('sync-token:http://localhost:4100');
  });

  it.each([
    [42, /must be a URL/],
    ['', /must be a URL/],
    [`https://x.example/${'a'.repeat(2100)}`, /must be a URL/],
    ['sync.example.com', /not a URL/],
    ['http://sync.example.com/v1', /must use https/],
    ['file:///etc/passwd', /must use https/],
    ['https://user:pw@sync.example.com/v1', /user name or password/],
  ])('refuses the remote address %s', (url, message) => {
    expect(() => checkRemoteUrl(url)).toThrow(InvalidCredentialInput);
    expect(() => checkRemoteUrl(url)).toThrow(message);
  });

  it.each([
    [undefined, /must be text/],
    ['   ', /is empty/],
    ['a'.repeat(16_385), /longer than 16384/],
    ['key\nsecond line', /single line/],
    ['key\u0000', /single line/],
  ])('refuses the credential %j', (secret, message) => {
    expect(() => checkSecret(secret)).toThrow(message);
  });

  it('writes nothing when the input is refused', async () => {
    const store = sessionSecretStore();
    await expect(setSyncCredential(store, 'http://sync.example.com', 'k')).rejects.toThrow(InvalidCredentialInput);
    expect(await store.get(secretAccounts.syncToken('http://sync.example.com'))).toBeNull();
  });
});
