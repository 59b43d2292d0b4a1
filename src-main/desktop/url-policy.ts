/**
 * Security decisions of the desktop shell as small pure functions, parsed with the platform URL parser (never
 * substring matching).
 *
 * - `isAppUrl`: may the window navigate to / trust IPC from this URL? Only the exact origin of the local server
 *   (scheme, host and port) — or, in development, the exact origin of the renderer dev server.
 * - `isSafeExternalUrl`: is a link's scheme fit for the OS browser? Only https (and http to non-local hosts is
 *   refused too: a finance app opens nothing unencrypted); never file:, javascript:, custom schemes. Which hosts a
 *   link may go to depends on what it is for: external-links.ts.
 * - `isSignInUrl`: may the Sync screen have the OS browser open this URL to sign in to a sync remote (RFC 8252)?
 *   Only an authorization request of the loopback sign-in the local server issues (PKCE, a redirect to
 *   `http://127.0.0.1:PORT/callback`), at https — or http on this machine, as a sync remote may be — so the
 *   channel cannot open anything else.
 */

function parse(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

export function isAppUrl(url: string, appOrigins: readonly string[]): boolean {
  const u = parse(url);
  if (!u || (u.protocol !== 'http:' && u.protocol !== 'https:')) return false;
  if (u.username || u.password) return false;
  return appOrigins.some((origin) => parse(origin)?.origin === u.origin);
}

export function isSafeExternalUrl(url: string): boolean {
  const u = parse(url);
  if (u?.protocol !== 'https:') return false;
  if (u.username || u.password) return false;
  return u.hostname !== '' && u.hostname !== 'localhost' && u.hostname !== '127.0.0.1' && u.hostname !== '[::1]';
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

export function isSignInUrl(url: string): boolean {
  const u = parse(url);
  if (!u || u.username || u.password) return false;
  if (u.protocol !== 'https:' && !(u.protocol === 'http:' && LOOPBACK_HOSTS.has(u.hostname))) return false;
  const q = u.searchParams;
  if (q.get('response_type') !== 'code' || q.get('code_challenge_method') !== 'S256' || !q.get('code_challenge')) return false;
  const redirect = parse(q.get('redirect_uri') ?? '');
  return (
    redirect?.protocol === 'http:' && redirect.hostname === '127.0.0.1' && redirect.pathname === '/callback' && !redirect.search
  );
}
