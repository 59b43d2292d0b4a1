/**
 * The port the desktop app's local server asks for first, the same at every launch for one data dir.
 *
 * The window's origin is `http://127.0.0.1:<port>`, and Chromium keeps a page's storage — the theme and the other
 * view settings the UI keeps in localStorage, the zoom level — per origin. A random port at every launch would
 * start each session from the defaults. A port derived from the data dir keeps the origin (so the settings) from
 * one launch to the next, needs no file, and differs between data dirs. It lies in 21000–28999, below every
 * OS's ephemeral range (Linux 32768+, macOS and Windows 49152+), so outgoing connections do not take it; when
 * another program holds it anyway, the host takes a random port for that session (server-host.ts).
 */
import { createHash } from 'node:crypto';
import path from 'node:path';

export const PORT_RANGE = { first: 21000, count: 8000 };

export function preferredPort(dataDir: string): number {
  const digest = createHash('sha256').update(path.resolve(dataDir)).digest();
  return PORT_RANGE.first + (digest.readUInt32BE(0) % PORT_RANGE.count);
}
