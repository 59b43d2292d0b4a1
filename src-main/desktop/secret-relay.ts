/**
 * Sync credentials across the shell/host boundary (protocol.ts). The host's sync rounds read and refresh them
 * through `relayedSecretStore`, which asks the shell; the shell answers from its own store with
 * `answerSecretRequest`. So there is one store of truth — the shell's keychain or safeStorage file — and the host
 * never opens the keychain itself.
 *
 * The host may reach sync credentials only (`sync-token:` accounts): the local API key it is handed at start, and
 * nothing else in the store is its business.
 */
import type { SecretStorageKind } from '../../src-shared/desktop-bridge';
import type { SecretStore } from '../infra/secret-store';
import type { SecretReply, SecretRequest } from './protocol';

const RELAYED_ACCOUNT_PREFIX = 'sync-token:';

export interface SecretRelay {
  store: SecretStore;
  /** Hand every `secret-reply` from the shell here. */
  onReply(reply: SecretReply): void;
}

export function relayedSecretStore(
  send: (request: SecretRequest) => void,
  kind: SecretStorageKind,
  timeoutMs = 10_000,
): SecretRelay {
  let nextId = 1;
  const pending = new Map<number, { resolve: (value: SecretReply['value']) => void; reject: (err: Error) => void }>();
  const ask = (op: SecretRequest['op'], account: string, secret?: string) =>
    new Promise<SecretReply['value']>((resolve, reject) => {
      const id = nextId++;
      // A shell that never answers must not hold a sync round (and with it the host's shutdown) forever.
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new Error(`the desktop shell did not answer a secret ${op} within ${timeoutMs} ms`));
      }, timeoutMs);
      timer.unref?.();
      pending.set(id, {
        resolve: (v) => {
          clearTimeout(timer);
          resolve(v);
        },
        reject: (err) => {
          clearTimeout(timer);
          reject(err);
        },
      });
      send({ type: 'secret', id, op, account, ...(secret === undefined ? {} : { secret }) });
    });
  return {
    store: {
      kind,
      get: async (account) => {
        const v = await ask('get', account);
        return typeof v === 'string' ? v : null;
      },
      set: async (account, secret) => {
        await ask('set', account, secret);
      },
      delete: async (account) => (await ask('delete', account)) === true,
    },
    onReply(reply) {
      const p = pending.get(reply.id);
      if (!p) return;
      pending.delete(reply.id);
      if (reply.error !== undefined) p.reject(new Error(reply.error));
      else p.resolve(reply.value ?? null);
    },
  };
}

/** The shell's side: the answer to one request of the host, from `store` (null: the shell has none yet). */
export async function answerSecretRequest(store: SecretStore | null, request: SecretRequest): Promise<SecretReply> {
  const reply = (fields: Omit<SecretReply, 'type' | 'id'>): SecretReply => ({ type: 'secret-reply', id: request.id, ...fields });
  if (typeof request.account !== 'string' || !request.account.startsWith(RELAYED_ACCOUNT_PREFIX)) {
    return reply({ error: `the server host may not read ${String(request.account)}` });
  }
  if (!store) return reply({ error: 'the secret store is not open yet' });
  try {
    if (request.op === 'get') return reply({ value: await store.get(request.account) });
    if (request.op === 'delete') return reply({ value: await store.delete(request.account) });
    if (request.op === 'set' && typeof request.secret === 'string') {
      await store.set(request.account, request.secret);
      return reply({ value: null });
    }
    return reply({ error: `unknown secret request ${String(request.op)}` });
  } catch (err) {
    return reply({ error: `the secret store failed: ${(err as Error).message}` });
  }
}
