/**
 * The secret store for where keytar cannot serve (docs/decisions/0042-desktop-secrets.md): each secret encrypted by
 * the OS through Electron's `safeStorage` (Keychain on macOS, DPAPI on Windows, the Secret Service or KWallet on
 * Linux), the ciphertexts kept in one JSON file in the app's own folder (Electron's userData) — never in SQLite,
 * never in the data dir a person may copy or sync.
 *
 * The cipher is an interface: Electron's safeStorage in the app, a real AES-GCM key in tests. Each entry is
 * encrypted on its own, so one unreadable entry (the OS key changed) costs that secret, not the others; the file
 * is replaced atomically (write, then rename) with mode 0600.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { SecretStore } from '../infra/secret-store';

export interface SecretCipher {
  encrypt(plain: string): Buffer;
  decrypt(encrypted: Buffer): string;
}

/** What Electron's safeStorage says about itself (the parts the choice depends on). */
export interface SafeStorageFacts {
  available: boolean;
  platform: NodeJS.Platform;
  /** Linux only: the backend Chromium picked; `basic_text` is a fixed, published key (obfuscation, not secrecy). */
  linuxBackend?: string;
}

/** Is safeStorage worth using? Not when it cannot encrypt, nor on Linux when its key is the hard-coded fallback. */
export function safeStorageUsable(facts: SafeStorageFacts): boolean {
  if (!facts.available) return false;
  if (facts.platform !== 'linux') return true;
  return facts.linuxBackend !== undefined && facts.linuxBackend !== 'basic_text' && facts.linuxBackend !== 'unknown';
}

interface FileShape {
  version: 1;
  /** account → base64 ciphertext */
  entries: Record<string, string>;
}

export const SECRETS_FILE_NAME = 'secrets.json';

export function encryptedFileSecretStore(file: string, cipher: SecretCipher): SecretStore {
  const read = (): FileShape => {
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, entries: {} };
      throw err;
    }
    const parsed = JSON.parse(text) as Partial<FileShape>;
    if (parsed.version !== 1 || typeof parsed.entries !== 'object' || parsed.entries === null) {
      throw new Error(`${file} is not a secrets file of this app`);
    }
    return { version: 1, entries: parsed.entries };
  };
  const write = (shape: FileShape): void => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, `${JSON.stringify(shape, null, 2)}\n`, { mode: 0o600 });
    fs.renameSync(tmp, file);
  };
  return {
    kind: 'encrypted-file',
    async get(account) {
      const entry = read().entries[account];
      return entry === undefined ? null : cipher.decrypt(Buffer.from(entry, 'base64'));
    },
    async set(account, secret) {
      const shape = read();
      shape.entries[account] = cipher.encrypt(secret).toString('base64');
      write(shape);
    },
    async delete(account) {
      const shape = read();
      if (!(account in shape.entries)) return false;
      delete shape.entries[account];
      write(shape);
      return true;
    },
  };
}
