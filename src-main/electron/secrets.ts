/**
 * The shell's secret store: the OS keychain through keytar; where keytar cannot serve, entries encrypted by
 * Electron's safeStorage in `secrets.json` in the app's folder; else this session only
 * (docs/decisions/0042-desktop-secrets.md). The choice is made in src-main/desktop; this only wires safeStorage in.
 */
import path from 'node:path';
import { safeStorage } from 'electron';
import { encryptedFileSecretStore, SECRETS_FILE_NAME, safeStorageUsable } from '../desktop/encrypted-file-store';
import { type OpenedSecretStore, openSecretStore, type SecretStore } from '../infra/secret-store';

export function openShellSecrets(appDir: string): Promise<OpenedSecretStore> {
  return openSecretStore(undefined, undefined, () => {
    // Asked only when keytar cannot serve; a safeStorage that throws leaves the session-only store.
    try {
      return safeStorageFile(appDir);
    } catch {
      return null;
    }
  });
}

function safeStorageFile(appDir: string): SecretStore | null {
  const usable = safeStorageUsable({
    available: safeStorage.isEncryptionAvailable(),
    platform: process.platform,
    linuxBackend: process.platform === 'linux' ? safeStorage.getSelectedStorageBackend() : undefined,
  });
  if (!usable) return null;
  return encryptedFileSecretStore(path.join(appDir, SECRETS_FILE_NAME), {
    encrypt: (plain) => safeStorage.encryptString(plain),
    decrypt: (encrypted) => safeStorage.decryptString(encrypted),
  });
}
