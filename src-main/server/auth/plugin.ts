import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { grants, type Scope } from '../../../src-shared/contract/scopes';
import type { Db } from '../../store/db';
import { forbidden, unauthorized } from '../errors';
import { withHook } from '../plugins/route-hooks';
import type { SessionAuth } from '../session/authenticator';
import { type BearerResolver, type Credential, type CredentialLookup, credentialResolver } from './credentials';

declare module 'fastify' {
  interface FastifyRequest {
    credential: Credential | null;
  }
  interface FastifyInstance {
    /** The server's credential lookup, for work that re-checks a credential after the request began (streams). */
    resolveBearer: CredentialLookup;
    /**
     * The request's credential as it stands now (bearer token or session cookie), for work that re-checks it after
     * the request began (streams); undefined once it is revoked or expired.
     */
    recheckCredential(request: FastifyRequest): Credential | undefined;
  }
  interface FastifyContextConfig {
    /** Scopes the route requires; undefined on routes outside the contract (docs, static files). */
    scopes?: readonly Scope[];
    public?: boolean;
    idempotent?: boolean;
  }
}

function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

/**
 * Authentication and scope check for every contract route, before anything else reads the request:
 * absent, invalid, revoked or scope-less credentials → 401; a missing scope → 403 naming the scopes required
 * (in the hosted service's description style). Routes without `config.scopes` are not contract routes and pass.
 */
export interface AuthOptions {
  db: Db;
  /** How bearer tokens resolve, tried in order (API keys, OAuth access tokens): the app decides which kinds exist. */
  resolvers: readonly BearerResolver[];
  /**
   * The web UI's session cookie (server/session/), used only when no Authorization header is sent; writes made with
   * it must carry its CSRF token. Without it only bearer credentials exist.
   */
  sessions?: SessionAuth;
}

export const authPlugin = fp(
  async (app: FastifyInstance, opts: AuthOptions) => {
    const resolveBearer = credentialResolver(opts.db, opts.resolvers);
    app.decorate('resolveBearer', resolveBearer);
    app.decorate('recheckCredential', (request: FastifyRequest) => {
      const token = bearerToken(request);
      if (token !== undefined || request.headers.authorization) return token ? resolveBearer(token) : undefined;
      return opts.sessions?.recheck(request);
    });
    app.decorateRequest('credential', null);

    /** The check of one route, which knows its scopes from the start (no per-request look at the route's config). */
    const authenticate =
      (scopes: readonly Scope[]): onRequestHookHandler =>
      (request, _reply, done) => {
        const token = bearerToken(request);
        let credential: Credential | undefined;
        if (token) {
          credential = resolveBearer(token);
          if (!credential) return done(unauthorized('Invalid, expired or revoked credential'));
        } else {
          // The session cookie counts only when no Authorization header is sent: bearer auth is unchanged by it.
          const session = request.headers.authorization ? undefined : opts.sessions?.authenticate(request);
          if (!session)
            return done(unauthorized('Authentication required', 'Send Authorization: Bearer <API key or OAuth access token>'));
          if (session instanceof Error) return done(session);
          credential = session;
        }
        if (credential.scopes.size === 0) return done(unauthorized('The credential has no effective scopes'));
        if (!grants(credential.scopes, scopes)) {
          return done(
            forbidden(
              'Insufficient permissions',
              `Insufficient permissions. Required scopes: ${scopes.join(', ')}. Your scopes: ${credential.granted.join(', ')}`,
            ),
          );
        }
        request.credential = credential;
        done();
      };

    // Each contract route that needs a caller gets the check as its first onRequest hook, ahead of the rate limit
    // and the response cache that read the credential (their plugins register after this one, and so do their
    // onRoute hooks). Callback style, not async: it runs on every request, and a promise per hook showed in the
    // profiles. Routes outside the contract (docs, the web UI's files, unknown paths) and public ones pass.
    app.addHook('onRoute', (route) => {
      const scopes = route.config?.scopes;
      if (!scopes || route.config?.public) return;
      route.onRequest = withHook(route.onRequest, authenticate(scopes));
    });
  },
  { name: 'auth' },
);
