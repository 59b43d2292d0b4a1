import dns from 'node:dns';
import { operatorSettings } from '../operator/settings';
import { nonPublicKind, parseAddress } from './addresses';
import { type Allowance, allows, parseAllowance } from './allowance';

/**
 * The address check every outbound connection goes through (docs/decisions/0175-outbound-request-policy.md): the
 * host is resolved here, each address is checked (addresses.ts) against the operator's allowance (allowance.ts), and
 * the caller connects to an address that passed — never to a name resolved again later, so a DNS answer that
 * changes between the check and the connection (rebinding) reaches nothing it was not allowed to. HTTP goes through
 * fetch.ts, mail sockets through `socketTarget`.
 */
export class OutboundRefused extends Error {
  override name = 'OutboundRefused';
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export type Resolver = (host: string) => Promise<ResolvedAddress[]>;

const systemResolver: Resolver = async (host) =>
  (await dns.promises.lookup(host, { all: true, verbatim: true })).map((a) => ({
    address: a.address,
    family: a.family === 6 ? 6 : 4,
  }));

let resolver: Resolver = systemResolver;

/** Tests: answer names as a DNS server of theirs would (a name turning into loopback); no argument restores it. */
export function useResolver(r?: Resolver): void {
  resolver = r ?? systemResolver;
}

let cached: { key: string; allowance: Allowance } | undefined;

/** The operator's allowance in force (parsed once per value). */
export function currentAllowance(): Allowance {
  const entries = operatorSettings().allowPrivateHosts;
  const key = entries.join(',');
  if (cached?.key !== key) cached = { key, allowance: parseAllowance(entries) };
  return cached.allowance;
}

const HOW_TO_ALLOW = 'the operator may allow it at start: finops serve --allow-private-hosts';

/**
 * The addresses of `host` that may be reached on `port`, in the resolver's order; OutboundRefused naming the first
 * refused one when none may. An IP literal is checked as it is.
 */
export async function checkedAddresses(host: string, port: number): Promise<ResolvedAddress[]> {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  const literal = parseAddress(bare);
  const found: ResolvedAddress[] = literal
    ? [{ address: bare, family: literal.kind() === 'ipv6' ? 6 : 4 }]
    : await resolver(bare);
  const allowance = currentAllowance();
  const passed = found.filter((a) => !nonPublicKind(a.address) || allows(allowance, { host: bare, address: a.address, port }));
  if (passed.length > 0) return passed;
  const first = found[0];
  if (!first) throw new OutboundRefused(`${bare} has no address`);
  const via = literal ? '' : ` (${bare} resolves to it)`;
  throw new OutboundRefused(`${first.address}${via} is ${nonPublicKind(first.address)}: refused (${HOW_TO_ALLOW})`);
}

/**
 * Where a mail client (SMTP, IMAP) connects: the checked address, with the host name as TLS server name so the
 * certificate is still verified against the name that was asked for.
 */
export async function socketTarget(host: string, port: number): Promise<{ host: string; servername?: string }> {
  const [first] = await checkedAddresses(host, port);
  return parseAddress(host) ? { host: first!.address } : { host: first!.address, servername: host };
}
