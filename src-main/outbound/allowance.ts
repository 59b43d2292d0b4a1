import ipaddr from 'ipaddr.js';
import { parseAddress } from './addresses';

/**
 * The operator's allowance of non-public addresses (`finops serve --allow-private-hosts`, `$FINOPS_ALLOW_PRIVATE_HOSTS`;
 * docs/decisions/0175-outbound-request-policy.md). Each entry is one of
 *   `10.0.0.0/8`, `fd00::/8`     a range (CIDR): every address in it, on any port;
 *   `127.0.0.1`, `::1`            one address, on any port;
 *   `sync.lan`                    the addresses that host name resolves to, on any port;
 *   `127.0.0.1:4100`, `[::1]:4100`, `mail.lan:587`   the same, on that one port only.
 * An entry that is none of these is refused when the settings are read, naming it.
 */

type Rule =
  | { kind: 'range'; range: [ipaddr.IPv4 | ipaddr.IPv6, number]; port?: number }
  | { kind: 'name'; name: string; port?: number };

export interface Allowance {
  readonly entries: readonly string[];
  readonly rules: readonly Rule[];
}

export class BadAllowance extends Error {
  override name = 'BadAllowance';
}

/** A host name as compared: lower case, without a trailing dot. */
export function canonicalHost(host: string): string {
  const h = host.toLowerCase();
  return h.endsWith('.') ? h.slice(0, -1) : h;
}

function parsePort(text: string, entry: string): number {
  const port = Number(text);
  if (!/^\d{1,5}$/.test(text) || port < 1 || port > 65535) throw new BadAllowance(`"${entry}": ${text} is not a port`);
  return port;
}

function ruleOf(entry: string): Rule {
  const e = entry.trim();
  if (e.includes('/')) {
    try {
      const [addr, bits] = ipaddr.parseCIDR(e);
      const mapped = addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress();
      return {
        kind: 'range',
        range: mapped ? [(addr as ipaddr.IPv6).toIPv4Address(), bits - 96] : [addr, bits],
      };
    } catch {
      throw new BadAllowance(`"${entry}" is not a CIDR range`);
    }
  }
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(e);
  if (bracketed) {
    const addr = parseAddress(bracketed[1]!);
    if (!addr) throw new BadAllowance(`"${entry}" is not an IPv6 address`);
    return single(addr, bracketed[2] === undefined ? undefined : parsePort(bracketed[2], entry));
  }
  const whole = parseAddress(e);
  if (whole) return single(whole, undefined);
  const hostPort = /^([^:]+)(?::(\d+))?$/.exec(e);
  if (!hostPort) throw new BadAllowance(`"${entry}" is not an address, a CIDR range or a host name`);
  const port = hostPort[2] === undefined ? undefined : parsePort(hostPort[2], entry);
  const asAddress = parseAddress(hostPort[1]!);
  if (asAddress) return single(asAddress, port);
  const name = canonicalHost(hostPort[1]!);
  if (!/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/.test(name)) {
    throw new BadAllowance(`"${entry}" is not an address, a CIDR range or a host name`);
  }
  return { kind: 'name', name, port };
}

function single(addr: ipaddr.IPv4 | ipaddr.IPv6, port: number | undefined): Rule {
  return { kind: 'range', range: [addr, addr.kind() === 'ipv4' ? 32 : 128], port };
}

export function parseAllowance(entries: readonly string[]): Allowance {
  return { entries, rules: entries.map(ruleOf) };
}

export const NO_ALLOWANCE: Allowance = { entries: [], rules: [] };

/** Whether the operator allowed reaching `address` (resolved from `host`) on `port`. */
export function allows(allowance: Allowance, target: { host: string; address: string; port: number }): boolean {
  const addr = parseAddress(target.address);
  if (!addr) return false;
  const host = canonicalHost(target.host.replace(/^\[|\]$/g, ''));
  return allowance.rules.some((rule) => {
    if (rule.port !== undefined && rule.port !== target.port) return false;
    if (rule.kind === 'name') return rule.name === host;
    return addr.kind() === rule.range[0].kind() && addr.match(rule.range);
  });
}
