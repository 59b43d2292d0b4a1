/**
 * The relay of sync credentials between the server host and the shell, both ends joined in memory (the real
 * process boundary is covered in supervisor.test.ts).
 */
import { describe, expect, it } from 'vitest';
import type { SecretReply, SecretRequest } from '../../../src-main/desktop/protocol';
import { answerSecretRequest, relayedSecretStore } from '../../../src-main/desktop/secret-relay';
import { type SecretStore, sessionSecretStore } from '../../../src-main/infra/secret-store';

function joined(shellStore: SecretStore | null, timeoutMs?: number) {
  const seen: SecretRequest[] = [];
  const relay = relayedSecretStore(
    (request) => {
      seen.push(request);
      void answerSecretRequest(shellStore, request).then((reply) => relay.onReply(reply));
    },
    'encrypted-file',
    timeoutMs,
  );
  return { store: relay.store, seen };
}

describe('relayed secret store', () => {
  it('reads, writes (an OAuth refresh) and deletes sync credentials in the shell store', async () => {
    const shell = sessionSecretStore();
    await shell.set('sync-token:https://r.example', 'token-1');
    const { store, seen } = joined(shell);
    expect(store.kind).toBe('encrypted-file');
    expect(await store.get('sync-token:https://r.example')).toBe('token-1');
    await store.set('sync-token:https://r.example', '{"kind":"oauth"}');
    expect(await shell.get('sync-token:https://r.example')).toBe('{"kind":"oauth"}');
    expect(await store.delete('sync-token:https://r.example')).toBe(true);
    expect(await store.get('sync-token:https://r.example')).toBeNull();
    expect(seen.map((r) => r.op)).toEqual(['get', 'set', 'delete', 'get']);
  });

  it('never hands the host another account (the local API key)', async () => {
    const shell = sessionSecretStore();
    await shell.set('local-api-key:/data', 'finops_local');
    const { store } = joined(shell);
    await expect(store.get('local-api-key:/data')).rejects.toThrow(/may not read local-api-key/);
    await expect(store.set('local-api-key:/data', 'x')).rejects.toThrow(/may not read/);
    expect(await shell.get('local-api-key:/data')).toBe('finops_local');
  });

  it('reports a failing store or a missing one as an error of that request', async () => {
    const failing: SecretStore = {
      kind: 'os-keychain',
      get: async () => {
        throw new Error('The name org.freedesktop.secrets was not provided');
      },
      set: async () => {},
      delete: async () => false,
    };
    await expect(joined(failing).store.get('sync-token:https://r.example')).rejects.toThrow(
      /secret store failed: The name org.freedesktop.secrets/,
    );
    await expect(joined(null).store.get('sync-token:https://r.example')).rejects.toThrow(/not open yet/);
  });

  it('gives up on a shell that does not answer, and ignores a late or unknown reply', async () => {
    let sent: SecretRequest | undefined;
    const relay = relayedSecretStore(
      (r) => {
        sent = r;
      },
      'os-keychain',
      50,
    );
    await expect(relay.store.get('sync-token:https://r.example')).rejects.toThrow(/did not answer a secret get within 50 ms/);
    const late: SecretReply = { type: 'secret-reply', id: sent!.id, value: 'late' };
    expect(() => relay.onReply(late)).not.toThrow();
    expect(() => relay.onReply({ type: 'secret-reply', id: 999, value: 'x' })).not.toThrow();
  });
});
