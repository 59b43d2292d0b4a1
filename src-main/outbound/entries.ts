import { nonPublicKind, parseAddress } from './addresses';
import { allows } from './allowance';
import { currentAllowance } from './policy';

/**
 * Why a team's host entry (`host`, `host:port`, `[v6]:port`) names an address its requests could never reach, or
 * undefined: an IP literal outside what the operator allowed is refused when it is set, so the owner learns it at
 * once instead of at the first call. A host name is judged when it is called (its addresses may change).
 */
export function refusedAddressEntry(entry: string): string | undefined {
  const m = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(entry.trim());
  if (!m) return undefined;
  const host = m[1]!.replace(/^\[|\]$/g, '');
  if (!parseAddress(host)) return undefined;
  const kind = nonPublicKind(host);
  if (!kind) return undefined;
  const ports = m[2] === undefined ? [80, 443] : [Number(m[2])];
  if (ports.some((port) => allows(currentAllowance(), { host, address: host, port }))) return undefined;
  return `${host} is ${kind}, which this server's operator does not let requests reach (finops serve --allow-private-hosts)`;
}
