/**
 * What the sync screen may do with remote credentials through the preload bridge (`window.finops.sync`): store
 * one for a remote, remove it, ask whether one is there. Never read it back: a secret goes from the page into the
 * shell's store and on to the host's sync rounds (secret-relay.ts), not back to any page.
 *
 * The input comes from a web page, so it is checked here with a clear message: the remote is an https URL (http
 * only to this machine, for a `finops serve` next door) without user info; the secret is a non-empty single line
 * (an API key, or an OAuth grant as JSON) of bounded length. Surrounding whitespace of a pasted key is dropped.
 */
import { type SecretStore, secretAccounts } from '../infra/secret-store';

export class InvalidCredentialInput extends Error {
  override name = 'InvalidCredentialInput';
}

const MAX_URL_LENGTH = 2048;
const MAX_SECRET_LENGTH = 16_384;
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** The remote's normalised base URL and its store account; throws InvalidCredentialInput. */
export function checkRemoteUrl(baseUrl: unknown): { baseUrl: string; account: string } {
  if (typeof baseUrl !== 'string' || baseUrl.length === 0 || baseUrl.length > MAX_URL_LENGTH) {
    throw new InvalidCredentialInput(`the remote address must be a URL of at most ${MAX_URL_LENGTH} characters`);
  }
  let u: URL;
  try {
    u = new URL(baseUrl);
  } catch {
    throw new InvalidCredentialInput(`the remote address is not a URL: ${baseUrl}`);
  }
  if (u.username || u.password) throw new InvalidCredentialInput('the remote address must not carry a user name or password');
  if (u.protocol !== 'https:' && !(u.protocol === 'http:' && LOOPBACK.has(u.hostname))) {
    throw new InvalidCredentialInput('the remote address must use https (http only for this machine)');
  }
  return { baseUrl: u.href, account: secretAccounts.syncToken(u.href) };
}

export function checkSecret(secret: unknown): string {
  if (typeof secret !== 'string') throw new InvalidCredentialInput('the credential must be text');
  const s = secret.trim();
  if (s.length === 0) throw new InvalidCredentialInput('the credential is empty');
  if (s.length > MAX_SECRET_LENGTH)
    throw new InvalidCredentialInput(`the credential is longer than ${MAX_SECRET_LENGTH} characters`);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is refused
  if (/[\u0000-\u001f\u007f]/.test(s)) throw new InvalidCredentialInput('the credential must be a single line of text');
  return s;
}

/** Stores it; returns the normalised base URL (the host is told, so rounds waiting for it run). */
export async function setSyncCredential(store: SecretStore, baseUrl: unknown, secret: unknown): Promise<string> {
  const remote = checkRemoteUrl(baseUrl);
  await store.set(remote.account, checkSecret(secret));
  return remote.baseUrl;
}

export async function clearSyncCredential(store: SecretStore, baseUrl: unknown): Promise<boolean> {
  return store.delete(checkRemoteUrl(baseUrl).account);
}

export async function hasSyncCredential(store: SecretStore, baseUrl: unknown): Promise<boolean> {
  return (await store.get(checkRemoteUrl(baseUrl).account)) !== null;
}
