/**
 * The encrypted-file secret store with a real cipher (AES-256-GCM; Electron's safeStorage in the app): secrets
 * round-trip, never appear in clear in the file, survive a new store on the same file, and the file is private.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { encryptedFileSecretStore, type SecretCipher, safeStorageUsable } from '../../../src-main/desktop/encrypted-file-store';
import { tmpDir } from '../../helpers/tmp';

const { aesGcmCipher: aesCipher } = require('../../helpers/aes-gcm.cjs') as { aesGcmCipher(): SecretCipher };

describe('encryptedFileSecretStore', () => {
  it('stores, overwrites and deletes secrets; the file holds only ciphertext and is private (0600)', async () => {
    const file = path.join(tmpDir('finops-secrets-'), 'app', 'secrets.json');
    const cipher = aesCipher();
    const store = encryptedFileSecretStore(file, cipher);
    expect(store.kind).toBe('encrypted-file');
    expect(await store.get('sync-token:https://a.example')).toBeNull();
    await store.set('sync-token:https://a.example', 'finops_remote_secret_1');
    await store.set('local-api-key:/data', 'finops_local_key');
    await store.set('sync-token:https://a.example', 'finops_remote_secret_2');
    expect(await store.get('sync-token:https://a.example')).toBe('finops_remote_secret_2');

    const text = fs.readFileSync(file, 'utf8');
    expect(text).not.toContain('finops_remote_secret');
    expect(text).not.toContain('finops_local_key');
    expect(Object.keys(JSON.parse(text).entries)).toEqual(['sync-token:https://a.example', 'local-api-key:/data']);
    if (process.platform !== 'win32') expect(fs.statSync(file).mode & 0o777).toBe(0o600);

    // A later launch (a new store on the same file and key) reads them back.
    const again = encryptedFileSecretStore(file, cipher);
    expect(await again.get('local-api-key:/data')).toBe('finops_local_key');
    expect(await again.delete('sync-token:https://a.example')).toBe(true);
    expect(await again.delete('sync-token:https://a.example')).toBe(false);
    expect(await store.get('sync-token:https://a.example')).toBeNull();
    expect(fs.readdirSync(path.dirname(file))).toEqual(['secrets.json']);
  });

  it('cannot be read with another key (another user, another machine)', async () => {
    const file = path.join(tmpDir('finops-secrets-'), 'secrets.json');
    await encryptedFileSecretStore(file, aesCipher()).set('a', 'secret');
    await expect(encryptedFileSecretStore(file, aesCipher()).get('a')).rejects.toThrow();
  });

  it('refuses a file that is not its own rather than overwrite it', async () => {
    const file = path.join(tmpDir('finops-secrets-'), 'secrets.json');
    fs.writeFileSync(file, '{"something":"else"}');
    await expect(encryptedFileSecretStore(file, aesCipher()).set('a', 'b')).rejects.toThrow(/not a secrets file/);
    expect(fs.readFileSync(file, 'utf8')).toBe('{"something":"else"}');
  });
});

describe('safeStorageUsable', () => {
  it.each([
    [{ available: true, platform: 'darwin' as const }, true],
    [{ available: true, platform: 'win32' as const }, true],
    [{ available: false, platform: 'darwin' as const }, false],
    [{ available: true, platform: 'linux' as const, linuxBackend: 'gnome_libsecret' }, true],
    [{ available: true, platform: 'linux' as const, linuxBackend: 'kwallet5' }, true],
    [{ available: true, platform: 'linux' as const, linuxBackend: 'basic_text' }, false],
    [{ available: true, platform: 'linux' as const }, false],
  ])('%o → %s', (facts, expected) => {
    expect(safeStorageUsable(facts)).toBe(expected);
  });
});
