/**
 * Entries of a workflow HTTP allow-list (docs/decisions/0103-workflow-effects.md, 0149): a host name or `host:port`,
 * compared after the platform's URL parser normalised them (lower case, IDN to punycode, default ports kept as given).
 * Never a URL, never a wildcard: an entry names exactly one host.
 */

/** The normalised entry, or a reason it is not one. */
export function normalizeHttpHost(entry: string): { host: string } | { problem: string } {
  const raw = entry.trim();
  if (!raw) return { problem: 'an empty entry' };
  if (/[/?#@*\s]/.test(raw) || raw.includes('://')) {
    return { problem: `"${raw}" is not a host or host:port (no scheme, path, credentials or wildcards)` };
  }
  let parsed: URL;
  try {
    parsed = new URL(`http://${raw}`);
  } catch {
    return { problem: `"${raw}" is not a host or host:port` };
  }
  if (!parsed.hostname) return { problem: `"${raw}" is not a host or host:port` };
  const explicitPort = /:(\d+)$/.exec(raw)?.[1];
  return { host: explicitPort ? `${parsed.hostname}:${Number(explicitPort)}` : parsed.hostname };
}
