import { Agent, fetch as undiciFetch } from 'undici';
import { operatorSettings } from '../operator/settings';
import { type Connector, describe, newConnector, ProxyFailed } from './connector';
import { OutboundRefused } from './policy';
import { proxyKey } from './proxy-env';

/**
 * HTTP(S) through the outbound policy (docs/decisions/0175-outbound-request-policy.md), for every client of the
 * product that calls another system: workflow HTTP nodes, the sync client and its OAuth sign-in, the relay, the
 * Peppol access point.
 * - Each connection is made to an address checked at connect time (policy.ts): undici's connector is handed the
 *   checked address instead of the name, so nothing resolves the name again between the check and the connection.
 *   Through the operator's proxy ($HTTPS_PROXY, $HTTP_PROXY, $NO_PROXY) the tunnel goes to that checked address,
 *   and TLS trusts the system's certificate store as well as Node's (connector.ts, trust.ts; decision 0195).
 * - Redirects are followed only when the caller says how many (default none: a 3xx is answered as it came), each
 *   target checked the same way and by the caller's own rule (`checkUrl`); `sameOrigin` keeps them on the first
 *   URL's origin (clients that send a credential). A hop to another origin drops Authorization and Cookie.
 * - Bodies are read through a byte cap: a declared Content-Length above it is refused before reading, and the
 *   stream is cancelled as soon as the cap is passed (never read whole and cut afterwards).
 */

export class ResponseTooLarge extends Error {
  override name = 'ResponseTooLarge';
}

/** No connection to the target (refused, timed out, a certificate not trusted…); the message says which. */
export class OutboundUnreachable extends Error {
  override name = 'OutboundUnreachable';
}

/** Certificate errors whose cure is trusting the issuer (docs/decisions/0195-proxy-and-certificates.md). */
const UNTRUSTED_ISSUER = new Set([
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
]);

function hintFor(cause: unknown): string {
  const code = (cause as { code?: unknown }).code;
  return typeof code === 'string' && UNTRUSTED_ISSUER.has(code)
    ? " (the certificate's issuer is not trusted here: add its CA to the system's certificate store or to NODE_EXTRA_CA_CERTS)"
    : '';
}

/** An agent: connections are pooled per origin, each one made to a checked address (connector.ts). */
function newAgent(): { agent: Agent; connector: Connector } {
  const connector = newConnector();
  return { agent: new Agent({ connect: connector.connect }), connector };
}

/** What the pool depends on: the operator's allowance and proxy variables. */
const poolKey = () => `${operatorSettings().allowPrivateHosts.join(',')}\n${proxyKey()}`;

/**
 * One agent for the process while the operator's allowance and proxy stay as they are. A pooled connection was
 * checked when it was made: when the allowance changes (the desktop's Settings, live), the pool is replaced and the
 * old one closed once its requests are answered, so no idle connection to an address no longer allowed is used
 * again; so is a connection through a proxy no longer configured.
 */
let pool = { key: poolKey(), ...newAgent() };
function agentInForce(): Agent {
  const key = poolKey();
  if (key !== pool.key) {
    const old = pool;
    pool = { key, ...newAgent() };
    void old.agent
      .close()
      .then(() => old.connector.close())
      .catch(() => undefined);
  }
  return pool.agent;
}

export interface OutboundInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array | URLSearchParams;
  signal?: AbortSignal;
  /** The most bytes of a body read (after decompression). */
  maxBytes: number;
  /** Redirects followed; 0 (default): a 3xx is answered as it came. */
  maxRedirects?: number;
  /** Redirects only within the first URL's origin (a credential travels with the request). */
  sameOrigin?: boolean;
  /** The caller's own rule for each URL, the first and every redirect's target: a reason to refuse it, or undefined. */
  checkUrl?: (url: URL) => string | undefined;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];

export class OutboundResponse {
  private consumed = false;

  constructor(
    readonly status: number,
    readonly headers: Headers,
    /** The URL that answered (the last redirect's target). */
    readonly url: string,
    private readonly stream: ReadableStream<Uint8Array> | null,
    private readonly maxBytes: number,
  ) {}

  get ok(): boolean {
    return this.status >= 200 && this.status < 300;
  }

  /**
   * The body, at most `maxBytes`: ResponseTooLarge past it, unless `truncate` (then the first `maxBytes` bytes and
   * `truncated: true`). Either way nothing beyond the cap is read.
   */
  async read(options: { truncate?: boolean } = {}): Promise<{ bytes: Uint8Array; truncated: boolean }> {
    if (this.consumed) throw new Error('the body was read already');
    this.consumed = true;
    const declared = Number(this.headers.get('content-length') ?? Number.NaN);
    if (!options.truncate && declared > this.maxBytes) {
      await this.cancel();
      throw new ResponseTooLarge(`the answer is ${declared} bytes, more than the ${this.maxBytes} read`);
    }
    const chunks: Uint8Array[] = [];
    let total = 0;
    if (this.stream) {
      const reader = this.stream.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        if (total + value.length > this.maxBytes) {
          chunks.push(value.subarray(0, this.maxBytes - total));
          total = this.maxBytes;
          await reader.cancel();
          if (!options.truncate) throw new ResponseTooLarge(`the answer is larger than the ${this.maxBytes} bytes read`);
          return { bytes: concat(chunks, total), truncated: true };
        }
        chunks.push(value);
        total += value.length;
      }
    }
    return { bytes: concat(chunks, total), truncated: false };
  }

  async bytes(): Promise<Uint8Array> {
    return (await this.read()).bytes;
  }

  async text(): Promise<string> {
    return new TextDecoder().decode(await this.bytes());
  }

  /** Drops the body unread (a redirect's, an answer the caller does not want). */
  async cancel(): Promise<void> {
    this.consumed = true;
    await this.stream?.cancel().catch(() => {});
  }
}

function concat(chunks: Uint8Array[], total: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/**
 * Sends a request through the policy; OutboundRefused when an address, a redirect or the caller's rule refuses it,
 * ProxyFailed when the operator's proxy could not be used, OutboundUnreachable when the target could not be reached.
 */
export async function outboundFetch(input: string | URL, init: OutboundInit): Promise<OutboundResponse> {
  let url = new URL(input);
  const first = url.origin;
  let method = (init.method ?? 'GET').toUpperCase();
  let body = init.body;
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(init.headers ?? {})) headers[k.toLowerCase()] = v;
  const maxRedirects = init.maxRedirects ?? 0;
  for (let hop = 0; ; hop++) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new OutboundRefused(`${url.protocol} URLs are not called`);
    if (url.username || url.password) throw new OutboundRefused('a URL with credentials in it is refused');
    const problem = init.checkUrl?.(url);
    if (problem) throw new OutboundRefused(problem);
    let res: Awaited<ReturnType<typeof undiciFetch>>;
    try {
      res = await undiciFetch(url, {
        method,
        headers,
        body,
        redirect: 'manual',
        signal: init.signal,
        dispatcher: agentInForce(),
      });
    } catch (err) {
      // undici wraps what the connector refused in "fetch failed": the refusal itself is the answer.
      const cause = (err as { cause?: unknown }).cause;
      if (cause instanceof OutboundRefused || cause instanceof ProxyFailed) throw cause;
      // The reason a person can act on, not "fetch failed" (which reached the sync screen as "offline" alone).
      if (err instanceof TypeError && cause !== undefined) {
        throw new OutboundUnreachable(`${url.host} could not be reached: ${describe(cause)}${hintFor(cause)}`, { cause });
      }
      throw err;
    }
    const answer = new OutboundResponse(
      res.status,
      new Headers(res.headers as unknown as Headers),
      url.toString(),
      res.body as ReadableStream<Uint8Array> | null,
      init.maxBytes,
    );
    const location = res.headers.get('location');
    if (!REDIRECTS.has(res.status) || location === null || maxRedirects === 0) return answer;
    await answer.cancel();
    if (hop >= maxRedirects) throw new OutboundRefused(`more than ${maxRedirects} redirects (the last to ${location})`);
    let next: URL;
    try {
      next = new URL(location, url);
    } catch {
      throw new OutboundRefused(`a redirect to "${location}", which is not a URL`);
    }
    if (init.sameOrigin && next.origin !== first) {
      throw new OutboundRefused(`a redirect to another origin (${next.origin}) is not followed`);
    }
    if (next.origin !== url.origin) for (const h of CREDENTIAL_HEADERS) delete headers[h];
    // As fetch does: 303, and 301/302 after a POST, go on as a GET without the body.
    if (res.status === 303 || ((res.status === 301 || res.status === 302) && method === 'POST')) {
      method = 'GET';
      body = undefined;
      delete headers['content-type'];
    }
    url = next;
  }
}
