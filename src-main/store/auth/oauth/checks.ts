import crypto from 'node:crypto';
import { expandScopes, parseScopeList, type Scope } from '../../../../src-shared/contract/scopes';

/**
 * The security rules of the OAuth server as small pure functions, each answering one question with a named
 * outcome, so that each rule is one table test away from being proven (test/main/store/auth/oauth.test.ts).
 */

export type RedirectUriCheck =
  /** An absolute https URL, or http on a loopback host: acceptable. */
  | 'ok'
  /** Not parseable as an absolute URL (a relative path, garbage). */
  | 'not-absolute'
  /** A scheme other than http/https (javascript:, data:, custom app schemes). */
  | 'bad-scheme'
  /** Plain http to a host that is not this machine: the code would cross the network in clear text. */
  | 'insecure-http'
  /** RFC 6749 §3.1.2: the redirection endpoint URI must not include a fragment. */
  | 'has-fragment'
  /** user:password@host: never needed, and a classic way to disguise the real host. */
  | 'has-credentials';

/**
 * Loopback means the literal loopback addresses or the name `localhost` itself, decided on the host the platform
 * URL parser extracts — never by substring, so `localhost.evil.example` and `127.0.0.1.nip.io` are not loopback.
 */
export function isLoopbackHost(hostname: string): boolean {
  if (hostname === 'localhost' || hostname === '[::1]') return true;
  return /^127(\.\d{1,3}){3}$/.test(hostname) && hostname.split('.').every((o) => Number(o) <= 255);
}

export function checkRedirectUri(uri: string): RedirectUriCheck {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'not-absolute';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'bad-scheme';
  if (!url.hostname) return 'not-absolute';
  if (uri.includes('#')) return 'has-fragment';
  if (url.username || url.password) return 'has-credentials';
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) return 'insecure-http';
  return 'ok';
}

export const REDIRECT_URI_PROBLEMS: Record<Exclude<RedirectUriCheck, 'ok'>, string> = {
  'not-absolute': 'must be an absolute URL',
  'bad-scheme': 'must use https (or http for a loopback host)',
  'insecure-http': 'http is only allowed for loopback hosts (127.0.0.1, [::1], localhost); use https',
  'has-fragment': 'must not contain a fragment (#…)',
  'has-credentials': 'must not contain a user name or password',
};

export type ScopeRequest =
  | { ok: true; scopes: Scope[] }
  | { ok: false; reason: 'unknown-scope' | 'not-allowed'; scopes: string[] };

/**
 * The scopes a request asks for, checked against what the client may have. An absent or empty request means
 * "everything the client is allowed". A request is allowed when every scope it names, umbrellas expanded, is
 * within the allowed set expanded: a client allowed `apis.read` may ask for `customers.read`, but a client
 * allowed `customers.read` may not ask for `apis.read`.
 */
export function resolveRequestedScopes(requested: string | undefined, allowed: readonly Scope[]): ScopeRequest {
  if (requested === undefined || requested.trim() === '') return { ok: true, scopes: [...allowed] };
  const { scopes, unknown } = parseScopeList(requested);
  if (unknown.length) return { ok: false, reason: 'unknown-scope', scopes: unknown };
  const allowedSet = expandScopes(allowed);
  const outside = scopes.filter((s) => [...expandScopes([s])].some((x) => !allowedSet.has(x)));
  if (outside.length) return { ok: false, reason: 'not-allowed', scopes: outside };
  return { ok: true, scopes };
}

/** RFC 7636 §4.1: 43–128 characters of the unreserved set. */
const VERIFIER_PATTERN = /^[A-Za-z0-9\-._~]{43,128}$/;
/** An S256 challenge is the base64url (no padding) of a SHA-256 digest: exactly 43 characters. */
const S256_CHALLENGE_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function isValidCodeChallenge(challenge: string): boolean {
  return S256_CHALLENGE_PATTERN.test(challenge);
}

export function s256(verifier: string): string {
  return crypto.createHash('sha256').update(verifier).digest('base64url');
}

export type PkceCheck = 'ok' | 'verifier-missing' | 'verifier-malformed' | 'verifier-mismatch' | 'verifier-unexpected';

/**
 * PKCE at the token endpoint. With a stored challenge the verifier must be present, well-formed and hash to it.
 * Without one, a verifier is refused too (RFC 9700 §2.1.1: it would signal a downgrade attempt).
 */
export function checkPkce(challenge: string | null, verifier: string | undefined): PkceCheck {
  if (!challenge) return verifier === undefined ? 'ok' : 'verifier-unexpected';
  if (verifier === undefined || verifier === '') return 'verifier-missing';
  if (!VERIFIER_PATTERN.test(verifier)) return 'verifier-malformed';
  const a = Buffer.from(s256(verifier));
  const b = Buffer.from(challenge);
  return a.length === b.length && crypto.timingSafeEqual(a, b) ? 'ok' : 'verifier-mismatch';
}

export type BasicCredentials = { clientId: string; clientSecret: string };

/**
 * `Authorization: Basic base64(urlencode(client_id) ":" urlencode(client_secret))` (RFC 6749 §2.3.1). Returns
 * undefined when the header is not Basic, and 'malformed' when it is Basic but cannot be decoded.
 */
export function parseBasicAuth(header: string | undefined): BasicCredentials | 'malformed' | undefined {
  if (!header) return undefined;
  const match = /^Basic[ ]+([A-Za-z0-9+/=_-]+)\s*$/i.exec(header);
  if (!match) return /^Basic\b/i.test(header) ? 'malformed' : undefined;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return 'malformed';
  try {
    return {
      clientId: decodeURIComponent(decoded.slice(0, colon).replaceAll('+', ' ')),
      clientSecret: decodeURIComponent(decoded.slice(colon + 1).replaceAll('+', ' ')),
    };
  } catch {
    return 'malformed';
  }
}

/** Constant-time comparison of two strings of any length. */
export function safeEqual(a: string, b: string): boolean {
  const ha = crypto.createHash('sha256').update(a).digest();
  const hb = crypto.createHash('sha256').update(b).digest();
  return crypto.timingSafeEqual(ha, hb) && a.length === b.length;
}
