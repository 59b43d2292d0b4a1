/**
 * The built web UI (out/web, or out/renderer in the desktop app) served at `/` by the same server as the API.
 *
 * - A file that exists under the root is sent as is; hashed build assets (`/assets/…`) are cached for a year,
 *   everything else is revalidated.
 * - Any other GET outside the APIs gets index.html (SPA fallback), so client-side paths like /customers survive a
 *   reload. Paths under `/v1`, `/app` (the internal API) and `/hooks` never fall back: an unknown API path stays a
 *   404 with the Error payload.
 * - The HTML carries the UI's Content-Security-Policy (src-shared/csp.ts) and is never cached, so a new build is
 *   picked up at once.
 */
import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { UI_CONTENT_SECURITY_POLICY } from '../../src-shared/csp';

/** Paths of the APIs: never answered with the web UI's files. */
const API_PREFIXES = ['/v1', '/app', '/hooks'];

export interface WebUiOptions {
  root: string;
}

function sendIndex(reply: FastifyReply): FastifyReply {
  return reply
    .header('Content-Security-Policy', UI_CONTENT_SECURITY_POLICY)
    .header('X-Content-Type-Options', 'nosniff')
    .header('Referrer-Policy', 'no-referrer')
    .header('Cache-Control', 'no-cache')
    .sendFile('index.html', { cacheControl: false });
}

/** The file under `root` that `urlPath` names, or null (directories, `..` escapes, missing files). */
export function resolveStaticFile(root: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const file = path.resolve(root, `.${path.posix.normalize(`/${decoded}`)}`);
  if (file !== root && !file.startsWith(root + path.sep)) return null;
  try {
    return fs.statSync(file).isFile() ? path.relative(root, file) : null;
  } catch {
    return null;
  }
}

/**
 * Registered at the root (fastify-plugin) so its hook sees requests no route matched. It answers in `onRequest`
 * rather than with a `/*` route: such a route would make the 405 check of the not-found handler report "Allowed:
 * GET" for every unknown path, turning 404s (POST /v1/forecast) into 405s.
 */
export const webUiPlugin = fp(async (app: FastifyInstance, options: WebUiOptions) => {
  const root = path.resolve(options.root);
  await app.register(fastifyStatic, { root, serve: false });
  // Callback style: every API request passes through here, and leaves at once.
  app.addHook('onRequest', (request, reply, done) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return done();
    if (!request.is404) return done(); // a real route matched: not ours
    const urlPath = request.url.split('?')[0] ?? '/';
    if (API_PREFIXES.some((p) => urlPath === p || urlPath.startsWith(`${p}/`))) return done();
    const file = resolveStaticFile(root, urlPath);
    // Answering from a callback hook: send, and do not call done().
    if (!file || file === 'index.html') {
      sendIndex(reply);
      return;
    }
    const immutable = file.startsWith(`assets${path.sep}`);
    reply
      .header('X-Content-Type-Options', 'nosniff')
      .sendFile(file, { maxAge: immutable ? 31_536_000_000 : 0, immutable, cacheControl: true });
  });
});
