/**
 * The port the desktop app's local server asks for first, the same at every launch for one data dir.
 *
 * The window's origin is `http://127.0.0.1:<port>`, and Chromium keeps a page's storage — the theme and the other
 * view settings the UI keeps in localStorage, the zoom level — per origin. A random port at every launch would
 * start each session from the defaults. A port derived from the data dir keeps the origin (so the settings) from
 * one launch to the next, needs no file, and differs between data dirs. It lies in 21000–28999, below every
 * OS's ephemeral range (Linux 32768+, macOS and Windows 49152+), so outgoing connections do not take it; when
 * another program holds it anyway, the host takes a random port for that session (`listenOnPreferredPort`).
 */
import { createHash } from 'node:crypto';
import path from 'node:path';

export const PORT_RANGE = { first: 21000, count: 8000 };

export function preferredPort(dataDir: string): number {
  const digest = createHash('sha256').update(path.resolve(dataDir)).digest();
  return PORT_RANGE.first + (digest.readUInt32BE(0) % PORT_RANGE.count);
}

/**
 * Why a listen on the preferred port failed and another port will do. EADDRINUSE: another program has it. EACCES:
 * Windows keeps ranges of ports for Hyper-V, WSL and Docker (`netsh interface ipv4 show excludedportrange
 * protocol=tcp`), which the preferred range can fall into; a listen there is refused with EACCES, not EADDRINUSE,
 * and asking for that port again fails each time.
 */
export function isPortUnavailable(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  return code === 'EADDRINUSE' || code === 'EACCES';
}

/**
 * Listens on `port`; when that port is unavailable, on one the OS picks (0): a new port is better than no server
 * (the shell reloads the window on it, `onFallback` says why). Any other failure, or one on port 0, is thrown.
 */
export async function listenOnPreferredPort<T>(
  port: number,
  listen: (port: number) => Promise<T>,
  onFallback: (err: NodeJS.ErrnoException) => void = () => {},
): Promise<T> {
  try {
    return await listen(port);
  } catch (err) {
    if (port === 0 || !isPortUnavailable(err)) throw err;
    onFallback(err as NodeJS.ErrnoException);
    return listen(0);
  }
}
