import type { Duplex } from 'node:stream';
import { buildConnector, type Dispatcher, Pool } from 'undici';
import { checkedAddresses } from './policy';
import { type ProxyChoice, proxyFor } from './proxy-env';
import { outboundSecureContext } from './trust';

/**
 * How fetch.ts's agent opens a connection (docs/decisions/0175, 0195): the target's name is resolved and its
 * addresses checked (policy.ts) whether or not a proxy is used, then either
 * - directly to the checked address, or
 * - through the operator's proxy (proxy-env.ts): a CONNECT tunnel to the checked *address* (`CONNECT 93.184.216.34:443`),
 *   never to the name, so the proxy does not resolve the name again and a DNS answer that changes after the check
 *   reaches nothing the policy refused; TLS to the target then runs inside the tunnel, verified against the name.
 *   Plain http targets are tunnelled the same way (as undici's ProxyAgent does by default).
 * The proxy itself is not judged by the address policy: the operator configured it, and it often is on a private
 * address. undici does the protocol work: `Pool.connect` sends the CONNECT and reads its answer, `buildConnector`
 * runs TLS over the tunnel. (undici's ProxyAgent and EnvHttpProxyAgent tunnel to the name and offer no place to
 * hand them the checked address.)
 */

/** The operator's proxy could not be used: it did not answer, refused the tunnel, or its setting is not a URL. */
export class ProxyFailed extends Error {
  override name = 'ProxyFailed';
}

type ConnectOptions = Parameters<ReturnType<typeof buildConnector>>[0];
type Callback = Parameters<ReturnType<typeof buildConnector>>[1];

const CONNECT_TIMEOUT_MS = 10_000;
/** How long a proxy may take to answer a CONNECT (it connects to the target meanwhile). */
const TUNNEL_TIMEOUT_MS = 30_000;

const defaultPort = (protocol: string) => (protocol === 'https:' ? 443 : 80);

/** The proxy as named in messages: its origin, never its credentials. */
const shown = (proxy: ProxyChoice) => `${proxy.url.origin} (from $${proxy.variable})`;

/** Connections to targets (direct, or TLS inside a tunnel); and a pool of connections to each proxy used. */
export interface Connector {
  connect(options: ConnectOptions, callback: Callback): void;
  close(): Promise<void>;
}

export function newConnector(): Connector {
  // The TLS connector is made at the first https connection, not when the module loads: reading the system's
  // certificate store takes a few hundred ms, which a process that calls nothing over TLS should not pay.
  const plain = buildConnector({ timeout: CONNECT_TIMEOUT_MS });
  let secure: ReturnType<typeof buildConnector> | undefined;
  const tlsOptions = () => {
    const secureContext = outboundSecureContext();
    return { timeout: CONNECT_TIMEOUT_MS, ...(secureContext ? { secureContext } : {}) };
  };
  const toTarget: ReturnType<typeof buildConnector> = (options, callback) => {
    if (options.protocol !== 'https:') return plain(options, callback);
    secure ??= buildConnector(tlsOptions());
    return secure(options, callback);
  };
  const proxies = new Map<string, Pool>();

  function proxyPool(proxy: ProxyChoice): Pool {
    const origin = proxy.url.origin;
    let pool = proxies.get(origin);
    if (!pool) {
      pool = new Pool(origin, {
        connect: proxy.url.protocol === 'https:' ? tlsOptions() : { timeout: CONNECT_TIMEOUT_MS },
        headersTimeout: TUNNEL_TIMEOUT_MS,
      });
      proxies.set(origin, pool);
    }
    return pool;
  }

  async function tunnel(proxy: ProxyChoice, address: string, port: number, host: string): Promise<Duplex> {
    const authority = address.includes(':') ? `[${address}]:${port}` : `${address}:${port}`;
    const headers: Record<string, string> = { host: authority };
    const { username, password } = proxy.url;
    if (username || password) {
      const pair = `${decodeURIComponent(username)}:${decodeURIComponent(password)}`;
      headers['proxy-authorization'] = `Basic ${Buffer.from(pair).toString('base64')}`;
    }
    let answer: Dispatcher.ConnectData;
    try {
      answer = await proxyPool(proxy).connect({ path: authority, headers });
    } catch (err) {
      // No `cause`: callers that show a cause's code alone (ECONNREFUSED) would drop that it was the proxy's.
      throw new ProxyFailed(`the proxy ${shown(proxy)} did not answer: ${describe(err)}`);
    }
    if (answer.statusCode === 200) return answer.socket;
    answer.socket.on('error', () => {}).destroy();
    const why =
      answer.statusCode === 407
        ? 'it asks for credentials (407): give them in the proxy URL, http://user:password@host:port'
        : `it answered ${answer.statusCode}`;
    throw new ProxyFailed(`the proxy ${shown(proxy)} refused the tunnel to ${host} (${authority}): ${why}`);
  }

  return {
    connect(options, callback) {
      const port = Number(options.port) || defaultPort(options.protocol);
      const opened = (async () => {
        const [checked] = await checkedAddresses(options.hostname, port);
        const address = checked!.address;
        let proxy: ProxyChoice | undefined;
        try {
          proxy = proxyFor(options.protocol, { host: options.hostname, address, port });
        } catch (err) {
          throw new ProxyFailed((err as Error).message);
        }
        if (!proxy) return { address };
        return { address, socket: await tunnel(proxy, address, port, options.hostname) };
      })();
      opened.then(
        ({ address, socket }) => {
          if (!socket) return void toTarget({ ...options, hostname: address }, callback);
          if (options.protocol !== 'https:') return void callback(null, socket as never);
          toTarget({ ...options, hostname: address, httpSocket: socket as never }, callback);
        },
        (err: Error) => callback(err, null),
      );
    },
    async close() {
      await Promise.all([...proxies.values()].map((p) => p.close()));
    },
  };
}

/** An error as one line: its code when it has one (ECONNREFUSED…) and its message. */
export function describe(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' && !err.message.includes(code) ? `${code}: ${err.message}` : err.message;
}
