import type { FastifyInstance } from 'fastify';
import { forbidden, sendError } from './errors';

/**
 * A defence against DNS rebinding for the server the desktop window talks to. A page on any web site can make the
 * browser resolve its own name to 127.0.0.1 and then send requests to the local port "from its own origin"; the
 * only thing that gives such a request away is its `Host` header, which names the attacker's host. So the desktop
 * host's server answers only requests whose Host is its own address (`127.0.0.1:PORT` or `localhost:PORT`) and
 * refuses every other with the spec's error payload (403) before auth, routing or the web UI run.
 *
 * Only where the server listens on loopback for one known client: `finops serve` may sit behind a proxy or be
 * reached by name on a network, so it does not check.
 */
export function isOwnHost(host: string | undefined, port: number): boolean {
  if (!host) return false;
  const h = host.toLowerCase();
  return h === `127.0.0.1:${port}` || h === `localhost:${port}`;
}

export function installOwnHostCheck(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    if (isOwnHost(request.headers.host, port)) return done();
    sendError(
      reply,
      forbidden('This server answers only its own address', `Host not allowed: ${request.headers.host ?? '(none)'}`),
    );
  });
}
