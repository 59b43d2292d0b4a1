/**
 * The keychain store against a real Secret Service: keytar + gnome-keyring in a private D-Bus session
 * (toolchain.md §2). Skipped, saying why, only when dbus-run-session or gnome-keyring-daemon is not installed.
 *
 * @module-tag slow (spawns processes; left out of `npm run test:fast`)
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type KeytarLike, openSecretStore, secretAccounts, sessionSecretStore } from '../../../src-main/infra/secret-store';
import { ROOT } from '../../helpers/cli';
import { tmpDir } from '../../helpers/tmp';

function which(bin: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${bin}`]).status === 0;
}

const missing = ['dbus-run-session', 'gnome-keyring-daemon'].filter((b) => !which(b));
const NO_SECRET_SERVICE = missing.length
  ? `no Secret Service can run here: ${missing.join(', ')} not installed (apt: dbus gnome-keyring)`
  : null;

describe('keychain secret store (real Secret Service)', () => {
  it.skipIf(NO_SECRET_SERVICE !== null)(
    `stores, overwrites and deletes the local API key in the OS keychain${NO_SECRET_SERVICE ? ` — skipped: ${NO_SECRET_SERVICE}` : ''}`,
    () => {
      const tmp = tmpDir('finops-keyring-');
      for (const d of ['data', 'run']) fs.mkdirSync(path.join(tmp, d), { mode: 0o700 });
      const script = path.join(__dirname, 'fixtures', 'keychain-roundtrip.ts');
      const node = process.execPath;
      const inner = `echo -n pw | gnome-keyring-daemon --unlock --components=secrets >/dev/null; exec "${node}" --import tsx "${script}"`;
      const r = spawnSync('dbus-run-session', ['--', 'sh', '-c', inner], {
        cwd: ROOT,
        encoding: 'utf8',
        timeout: 60_000,
        env: { ...process.env, XDG_DATA_HOME: path.join(tmp, 'data'), XDG_RUNTIME_DIR: path.join(tmp, 'run'), DISPLAY: '' },
      });
      expect(r.status, r.stderr).toBe(0);
      const seen = JSON.parse(r.stdout.trim().split('\n').at(-1)!);
      expect(seen).toEqual({
        kind: 'os-keychain',
        fallbackReason: null,
        before: null,
        afterSet: 'finops_secret_1',
        afterOverwrite: 'finops_secret_2',
        deleted: true,
        afterDelete: null,
        deletedAgain: false,
      });
    },
  );
});

describe('falling back when there is no keychain', () => {
  it('uses the session-only store and says why when keytar cannot reach a keychain', async () => {
    const broken: KeytarLike = {
      getPassword: async () => {
        throw new Error('Cannot autolaunch D-Bus without X11 $DISPLAY');
      },
      setPassword: async () => {},
      deletePassword: async () => false,
    };
    const { store, fallbackReason } = await openSecretStore(() => broken);
    expect(store.kind).toBe('session-only');
    expect(fallbackReason).toMatch(/no OS keychain available: Cannot autolaunch D-Bus/);
  });

  it('uses the session-only store when keytar does not load', async () => {
    const { store, fallbackReason } = await openSecretStore(() => {
      throw new Error('libsecret-1.so.0: cannot open shared object file');
    });
    expect(store.kind).toBe('session-only');
    expect(fallbackReason).toMatch(/keytar could not be loaded/);
  });

  it("uses the caller's fallback store (the app's encrypted file) instead of the session-only one", async () => {
    const fallback = { ...sessionSecretStore(), kind: 'encrypted-file' as const };
    const { store, fallbackReason } = await openSecretStore(
      () => {
        throw new Error('keytar.node: undefined symbol');
      },
      undefined,
      () => fallback,
    );
    expect(store).toBe(fallback);
    expect(fallbackReason).toMatch(/keytar could not be loaded: keytar.node/);
    // A fallback that has nothing to offer (safeStorage unusable) leaves the session-only store.
    const none = await openSecretStore(
      () => ({}) as KeytarLike,
      undefined,
      () => null,
    );
    expect(none.store.kind).toBe('session-only');
  });

  it('the session-only store keeps secrets in memory for this run only', async () => {
    const a = sessionSecretStore();
    await a.set('x', 's1');
    expect(await a.get('x')).toBe('s1');
    expect(await sessionSecretStore().get('x')).toBeNull();
    expect(await a.delete('x')).toBe(true);
    expect(await a.get('x')).toBeNull();
  });

  it('names accounts per data dir and per remote origin', () => {
    expect(secretAccounts.localApiKey('/a/b/../c')).toBe('local-api-key:/a/c');
    expect(secretAccounts.syncToken('https://sync.example.com:8443/v1/sync?x=1')).toBe(
      'sync-token:https://sync.example.com:8443',
    );
  });
});
