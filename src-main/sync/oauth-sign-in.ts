import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { outboundFetch } from '../outbound/fetch';
import { type OAuthGrant, postTokenForm } from './credentials';

/**
 * Signing in to a remote with OAuth 2.0 (authorization code with PKCE, RFC 7636; a native app's loopback redirect,
 * RFC 8252) for sync (docs/decisions/0140-sync-engine.md): the remote's authorization and token endpoints come from
 * its metadata (`/.well-known/oauth-authorization-server`), a one-shot listener on 127.0.0.1 receives the redirect,
 * the `state` ties the answer to this request, and the code is exchanged with the PKCE verifier. The caller shows the
 * authorization URL to the person (the CLI prints it, the desktop app opens a browser) and keeps the grant in the
 * keychain; rounds refresh it (credentials.ts).
 */
export class SignInFailed extends Error {
  override name = 'SignInFailed';
}

export interface SignInOptions {
  /** The remote's API base, ending in /v1. */
  baseUrl: string;
  clientId: string;
  /** Space-separated scopes to ask for (default: what the client may have). */
  scope?: string;
  /** The loopback port of the redirect registered with the client (`http://127.0.0.1:PORT/callback`); 0 picks one. */
  port?: number;
  /** Shows the authorization URL to the person (print it, open a browser). */
  open: (url: string) => void | Promise<void>;
  timeoutMs?: number;
  now?: () => number;
}

export interface Endpoints {
  authorize: string;
  token: string;
}

/**
 * The remote's authorization and token endpoints, from its metadata or the spec's paths. The metadata is trusted only
 * for endpoints on the remote's own origin: one naming another host would send the person's sign-in page, the code
 * and the refresh token there. It is read through the outbound policy (no redirect, 64 KiB).
 */
export async function endpoints(baseUrl: string): Promise<Endpoints> {
  const origin = new URL(baseUrl).origin;
  const onOrigin = (url: unknown): url is string => {
    try {
      return typeof url === 'string' && new URL(url).origin === origin;
    } catch {
      return false;
    }
  };
  try {
    const res = await outboundFetch(`${origin}/.well-known/oauth-authorization-server`, {
      maxBytes: 64 * 1024,
      signal: AbortSignal.timeout(10_000),
    });
    if (res.ok) {
      const m = JSON.parse(await res.text()) as { authorization_endpoint?: unknown; token_endpoint?: unknown };
      if (onOrigin(m.authorization_endpoint) && onOrigin(m.token_endpoint))
        return { authorize: m.authorization_endpoint, token: m.token_endpoint };
    } else await res.cancel();
  } catch {
    // no metadata: the paths the spec names, under the API base
  }
  const base = baseUrl.replace(/\/+$/, '');
  return { authorize: `${base}/oauth/authorize`, token: `${base}/oauth/token` };
}

/** Waits for the one redirect to `/callback` on 127.0.0.1; resolves with its query (close() before it: rejects). */
export function listenForRedirect(
  port: number,
  timeoutMs: number,
): Promise<{ port: number; result: Promise<URLSearchParams>; close(): void }> {
  return new Promise((ready, fail) => {
    let resolveResult!: (q: URLSearchParams) => void;
    let rejectResult!: (e: Error) => void;
    const result = new Promise<URLSearchParams>((res, rej) => {
      resolveResult = res;
      rejectResult = rej;
    });
    const server = http.createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (url.pathname !== '/callback') {
        res.writeHead(404).end();
        return;
      }
      const failed = url.searchParams.has('error');
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        `<!doctype html><meta charset="utf-8"><title>Finops Desk</title><p>${
          failed
            ? 'Sign-in was not completed. You can close this window.'
            : 'Signed in. You can close this window and return to Finops Desk.'
        }</p>`,
      );
      resolveResult(url.searchParams);
    });
    const timer = setTimeout(
      () => rejectResult(new SignInFailed('no answer from the browser in time: sign-in abandoned')),
      timeoutMs,
    );
    timer.unref();
    const close = () => {
      clearTimeout(timer);
      server.close();
      rejectResult(new SignInFailed('sign-in cancelled'));
    };
    result.then(close, close);
    server.once('error', fail);
    server.listen(port, '127.0.0.1', () => ready({ port: (server.address() as AddressInfo).port, result, close }));
  });
}

/** A PKCE pair (S256) and a `state` for one authorization request. */
export function authorizationSecrets(): { verifier: string; challenge: string; state: string } {
  const verifier = crypto.randomBytes(32).toString('base64url');
  const challenge = crypto.createHash('sha256').update(verifier).digest('base64url');
  return { verifier, challenge, state: crypto.randomBytes(16).toString('base64url') };
}

/** The URL the person opens to authorize this client. */
export function authorizeUrl(
  ends: Endpoints,
  request: { clientId: string; redirectUri: string; challenge: string; state: string; scope?: string },
): string {
  const url = new URL(ends.authorize);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: request.clientId,
    redirect_uri: request.redirectUri,
    code_challenge: request.challenge,
    code_challenge_method: 'S256',
    state: request.state,
    ...(request.scope ? { scope: request.scope } : {}),
  }).toString();
  return url.toString();
}

/** Exchanges an authorization code for a grant with the PKCE verifier; SignInFailed with the remote's reason. */
export async function exchangeCode(
  ends: Endpoints,
  request: { code: string; redirectUri: string; clientId: string; verifier: string },
  now: () => number = Date.now,
): Promise<OAuthGrant> {
  const { res, t } = await postTokenForm(ends.token, {
    grant_type: 'authorization_code',
    code: request.code,
    redirect_uri: request.redirectUri,
    client_id: request.clientId,
    code_verifier: request.verifier,
  }).catch((err: unknown) => {
    throw new SignInFailed(`the remote's token endpoint did not answer (${err instanceof Error ? err.message : String(err)})`);
  });
  if (!res.ok || !t.access_token) {
    throw new SignInFailed(`the code was not exchanged (${res.status}): ${t.error_description ?? t.error ?? 'no access token'}`);
  }
  return {
    kind: 'oauth',
    accessToken: t.access_token,
    refreshToken: t.refresh_token ?? null,
    expiresAt: now() + (t.expires_in ?? 3600) * 1000,
    clientId: request.clientId,
    tokenUrl: ends.token,
  };
}

/** The grant for the redirect's answer to one authorization request: its state checked, its code exchanged. */
export async function grantFromAnswer(
  answer: URLSearchParams,
  request: { ends: Endpoints; state: string; redirectUri: string; clientId: string; verifier: string },
  now?: () => number,
): Promise<OAuthGrant> {
  if (answer.get('state') !== request.state)
    throw new SignInFailed('the answer does not belong to this sign-in (state differs): ignored');
  const error = answer.get('error');
  if (error) throw new SignInFailed(`the remote refused the sign-in: ${answer.get('error_description') ?? error}`);
  const code = answer.get('code');
  if (!code) throw new SignInFailed('the remote answered without a code');
  const { ends, redirectUri, clientId, verifier } = request;
  return exchangeCode(ends, { code, redirectUri, clientId, verifier }, now);
}

export async function oauthSignIn(options: SignInOptions): Promise<OAuthGrant> {
  const ends = await endpoints(options.baseUrl);
  const { verifier, challenge, state } = authorizationSecrets();
  const listener = await listenForRedirect(options.port ?? 0, options.timeoutMs ?? 5 * 60_000);
  const redirectUri = `http://127.0.0.1:${listener.port}/callback`;
  try {
    await options.open(authorizeUrl(ends, { clientId: options.clientId, redirectUri, challenge, state, scope: options.scope }));
    const answer = await listener.result;
    return await grantFromAnswer(answer, { ends, state, redirectUri, clientId: options.clientId, verifier }, options.now);
  } finally {
    listener.close();
  }
}
