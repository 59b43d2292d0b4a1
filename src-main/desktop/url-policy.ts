/**
 * Security decisions of the desktop shell as small pure functions, parsed with the platform URL parser (never
 * substring matching).
 *
 * - `isAppUrl`: may the window navigate to / trust IPC from this URL? Only the exact origin of the local server
 *   (scheme, host and port) — or, in development, the exact origin of the renderer dev server.
 * - `isSafeExternalUrl`: may a link be handed to the OS browser? Only https (and http to non-local hosts is
 *   refused too: a finance app opens nothing unencrypted); never file:, javascript:, custom schemes.
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
