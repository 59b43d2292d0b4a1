import tls from 'node:tls';

/**
 * The certificate authorities outbound TLS trusts (docs/decisions/0195-proxy-and-certificates.md): Node's default
 * set — its bundled Mozilla CAs plus `NODE_EXTRA_CA_CERTS` (or what `--use-openssl-ca`/`--use-system-ca` chose) —
 * and the operating system's store, so a company's own CA (a TLS-inspecting proxy's, an internal sync server's)
 * that IT installed on the machine is trusted without further setup. Node 22.15+ reads the system store with
 * `tls.getCACertificates('system')`: the keychain on macOS, the certificate store on Windows, and on Linux the
 * file and folder OpenSSL trusts (Debian's /etc/ssl/certs, or `SSL_CERT_FILE`/`SSL_CERT_DIR` when set).
 *
 * Read once per process, at the first TLS connection: the system store takes some milliseconds to parse, and a
 * certificate added later needs a restart — as Node's own `NODE_EXTRA_CA_CERTS` does.
 */

type CertificateSet = 'default' | 'system';

function certificates(set: CertificateSet): string[] {
  const get = (tls as { getCACertificates?: (type: CertificateSet) => string[] }).getCACertificates;
  // Older Node (before 22.15) has no such call: its default set is what there is.
  if (!get) return [];
  try {
    return get(set);
  } catch {
    return [];
  }
}

/** The CA certificates trusted, in PEM, each once. */
export function trustedCertificates(): string[] {
  return [...new Set([...certificates('default'), ...certificates('system')].map((pem) => pem.trim()))];
}

let context: tls.SecureContext | undefined;

/** One secure context with those CAs, for every outbound TLS connection of the process (targets and proxies). */
export function outboundSecureContext(): tls.SecureContext | undefined {
  if (context) return context;
  const ca = trustedCertificates();
  // Without the call, undefined leaves Node's defaults in force.
  if (ca.length > 0) context = tls.createSecureContext({ ca });
  return context;
}
