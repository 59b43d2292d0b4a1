import ipaddr from 'ipaddr.js';
import { parseAddress } from './addresses';
import { canonicalHost } from './allowance';

/**
 * The operator's proxy (docs/decisions/0195-proxy-and-certificates.md): `HTTPS_PROXY` for https URLs, `HTTP_PROXY`
 * for http URLs (and for https when `HTTPS_PROXY` is not set), `NO_PROXY` for the targets reached directly. Read
 * from the environment of the process (`finops serve`, the CLI, the desktop host) — the operator's, never a team's
 * setting. The lower-case forms win over the upper-case ones, as in curl and undici; an empty value is unset.
 *
 * `NO_PROXY` is a list separated by commas or spaces, each entry one of
 *   `*`                            every target;
 *   `example.com`, `.example.com`  that host and every name under it (`*.example.com` the same);
 *   `example.com:8443`             the same, on that port only;
 *   `10.0.0.0/8`, `192.168.1.7`    a target whose checked address is in it (a name that resolves there too).
 * Loopback targets named as such (`localhost`, `*.localhost`, a loopback literal) are always reached directly, as Go
 * and most tools do: a proxy elsewhere cannot reach this machine's loopback.
 */

export interface ProxyChoice {
  /** The proxy's URL as configured (credentials included), e.g. `http://user:pw@proxy.corp:3128`. */
  url: URL;
  /** The variable it came from, to name in errors. */
  variable: string;
}

export class BadProxySetting extends Error {
  override name = 'BadProxySetting';
}

type Env = NodeJS.ProcessEnv;

function first(env: Env, ...names: string[]): { name: string; value: string } | undefined {
  for (const name of names) {
    const value = env[name]?.trim();
    if (value) return { name, value };
  }
  return undefined;
}

/** The proxy URL of a variable's value: `http://` or `https://`; a bare `host:port` is taken as `http://`. */
export function parseProxyUrl(value: string, variable: string): URL {
  const text = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new BadProxySetting(`$${variable} "${value}" is not a proxy URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new BadProxySetting(`$${variable} "${value}": only http:// and https:// proxies are supported`);
  }
  return url;
}

/** The proxy variables in force, as one text: the connection pool is replaced when it changes. */
export function proxyKey(env: Env = process.env): string {
  return ['https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY', 'no_proxy', 'NO_PROXY'].map((n) => env[n] ?? '').join('\n');
}

function isLoopbackName(host: string): boolean {
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  return parseAddress(host)?.range() === 'loopback';
}

function bypasses(entry: string, target: { host: string; address: string; port: number }): boolean {
  if (entry === '*') return true;
  if (entry.includes('/')) {
    const addr = parseAddress(target.address);
    try {
      const range = ipaddr.parseCIDR(entry);
      return addr !== undefined && addr.kind() === range[0].kind() && addr.match(range);
    } catch {
      return false;
    }
  }
  // A whole entry that is an address (`::1` has colons of its own), else `name` or `name:port`.
  const m = parseAddress(entry) ? undefined : /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(entry);
  const name = m?.[1] ?? entry;
  if (m && Number(m[2]) !== target.port) return false;
  const literal = parseAddress(name);
  if (literal) {
    const addr = parseAddress(target.address);
    return addr !== undefined && addr.kind() === literal.kind() && addr.toString() === literal.toString();
  }
  const suffix = canonicalHost(name.replace(/^\*?\./, ''));
  return target.host === suffix || target.host.endsWith(`.${suffix}`);
}

/**
 * The proxy a connection to `host` (its checked `address`, on `port`) goes through, or undefined to connect
 * directly. BadProxySetting when the variable that applies holds something that is not a proxy URL.
 */
export function proxyFor(
  protocol: string,
  target: { host: string; address: string; port: number },
  env: Env = process.env,
): ProxyChoice | undefined {
  const setting =
    (protocol === 'https:' ? first(env, 'https_proxy', 'HTTPS_PROXY') : undefined) ?? first(env, 'http_proxy', 'HTTP_PROXY');
  if (!setting) return undefined;
  const host = canonicalHost(target.host.replace(/^\[|\]$/g, ''));
  if (isLoopbackName(host)) return undefined;
  const noProxy = (first(env, 'no_proxy', 'NO_PROXY')?.value ?? '')
    .split(/[\s,]+/)
    .map((e) => e.trim().toLowerCase())
    .filter(Boolean);
  if (noProxy.some((entry) => bypasses(entry, { ...target, host }))) return undefined;
  return { url: parseProxyUrl(setting.value, setting.name), variable: setting.name };
}
