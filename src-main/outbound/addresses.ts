import net from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Which addresses an outbound request may reach (docs/decisions/0175-outbound-request-policy.md): public unicast
 * addresses only, unless the operator allowed others at start (outbound/allowance.ts). Refused by default:
 * loopback (127/8, ::1), private (RFC 1918), link-local (169.254/16 with the cloud metadata address 169.254.169.254,
 * fe80::/10), carrier-grade NAT (100.64/10), unique local (fc00::/7), unspecified, broadcast, multicast, reserved and
 * documentation ranges, and IPv6 forms that carry an IPv4 address (IPv4-mapped `::ffff:a.b.c.d` is judged as the
 * IPv4 address it names; NAT64, 6to4 and Teredo are refused). Parsed with ipaddr.js, never by matching text.
 */

const NAMES: Record<string, string> = {
  loopback: 'a loopback address',
  private: 'a private (RFC 1918) address',
  linkLocal: 'a link-local address',
  carrierGradeNat: 'a carrier-grade NAT address',
  uniqueLocal: 'a unique local IPv6 address',
  unspecified: 'the unspecified address',
  broadcast: 'the broadcast address',
  multicast: 'a multicast address',
  reserved: 'a reserved address',
  rfc6052: 'a NAT64 address',
  rfc6145: 'an IPv4-translated address',
  '6to4': 'a 6to4 address',
  teredo: 'a Teredo address',
};

/** The address as ipaddr.js reads it, IPv4-mapped IPv6 unwrapped to its IPv4 address; undefined if not an IP. */
export function parseAddress(address: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  if (!net.isIP(bare.split('%')[0] ?? '')) return undefined;
  const parsed = ipaddr.parse(bare);
  return parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()
    ? (parsed as ipaddr.IPv6).toIPv4Address()
    : parsed;
}

/** What kind of non-public address this is (for the refusal), or undefined for a public unicast address. */
export function nonPublicKind(address: string): string | undefined {
  const parsed = parseAddress(address);
  if (!parsed) return 'not an IP address';
  const range = parsed.range();
  if (range === 'unicast') return undefined;
  return NAMES[range] ?? `a special-purpose address (${range})`;
}

/** Whether the text is an IP literal (IPv6 possibly in brackets). */
export function isIpLiteral(host: string): boolean {
  return parseAddress(host) !== undefined;
}
