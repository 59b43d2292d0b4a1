/**
 * What the desktop shell hands to the OS (`shell.openExternal`), judged by what the link is for. A scheme check
 * alone lets the page open any https site in the person's browser, with the app's say-so: the usual dress of a
 * phishing page. So each way out names its purpose and the hosts that purpose allows, parsed with the platform URL
 * parser (never substrings):
 *
 * - `page`: a link on the app's page (a new window, or a navigation to `mailto:`): `mailto:` with an address, or
 *   https to the app's own help and docs hosts (`HELP_HOSTS`). Nothing else leaves the window.
 * - `sign-in`: the authorization URL of a sync remote's loopback sign-in (`isSignInUrl`), on the origin of the remote
 *   the person signs in to; the local server takes a remote's endpoints from that origin only
 *   (src-main/sync/oauth-sign-in.ts), so a URL elsewhere was not made by it.
 * - `update`: the installer a release feed names (update-check.ts), https on the feed's own host.
 *
 * A refusal says why and what it refused in words fit for the shell's log: the scheme and host, never the query (a
 * sign-in's state) nor an e-mail address.
 */
import { isSafeExternalUrl, isSignInUrl } from './url-policy';

/**
 * The hosts of the app's own help and docs a page may link to. None yet: the app's documentation is the API reference
 * its local server serves, which the window shows itself. A help site gets its host here.
 */
export const HELP_HOSTS: readonly string[] = [];

export type ExternalLinkPurpose =
  | { for: 'page'; helpHosts?: readonly string[] }
  | { for: 'sign-in'; remoteBaseUrl: string }
  | { for: 'update'; feedUrl: string };

export type ExternalLinkVerdict = { open: true } | { open: false; reason: string };

function parse(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

/** The link as a log line may show it. */
export function describeLink(url: string): string {
  const u = parse(url);
  if (!u) return 'an unreadable URL';
  if (u.protocol === 'mailto:') return 'a mailto: link';
  return u.host ? `${u.protocol}//${u.host}` : `a ${u.protocol} link`;
}

const refused = (reason: string): ExternalLinkVerdict => ({ open: false, reason });
const OPEN: ExternalLinkVerdict = { open: true };

/** `mailto:` with at least one address (RFC 6068), no authority. */
function isMailto(u: URL): boolean {
  return u.protocol === 'mailto:' && !u.host && u.pathname.includes('@');
}

/** Is this a mailto: link at all (the window hands a clicked one to the page policy, and ignores other schemes)? */
export function isMailtoLink(url: string): boolean {
  return parse(url)?.protocol === 'mailto:';
}

function judgePage(u: URL, helpHosts: readonly string[]): ExternalLinkVerdict {
  if (isMailto(u)) return OPEN;
  if (!isSafeExternalUrl(u.href)) return refused('not an https link or a mailto: address');
  return helpHosts.includes(u.hostname) ? OPEN : refused('not a host of the app’s help');
}

function judgeSignIn(url: string, u: URL, remoteBaseUrl: string): ExternalLinkVerdict {
  if (!isSignInUrl(url)) return refused('not a loopback sign-in’s authorization URL');
  const remote = parse(remoteBaseUrl);
  if (!remote || (remote.protocol !== 'https:' && remote.protocol !== 'http:')) return refused('no remote to sign in to');
  return remote.origin === u.origin ? OPEN : refused(`not on the remote’s origin ${remote.origin}`);
}

function judgeUpdate(url: string, u: URL, feedUrl: string): ExternalLinkVerdict {
  if (!isSafeExternalUrl(url)) return refused('an installer is downloaded over https only');
  const feed = parse(feedUrl);
  return feed?.hostname === u.hostname ? OPEN : refused('not on the release feed’s host');
}

export function judgeExternalLink(url: string, purpose: ExternalLinkPurpose): ExternalLinkVerdict {
  const u = parse(url);
  if (!u) return refused('not a URL');
  if (u.username || u.password) return refused('a URL with a user name or password');
  if (purpose.for === 'page') return judgePage(u, purpose.helpHosts ?? HELP_HOSTS);
  if (purpose.for === 'sign-in') return judgeSignIn(url, u, purpose.remoteBaseUrl);
  return judgeUpdate(url, u, purpose.feedUrl);
}

/** A log line for a refused link, or null when it may open. */
export function refusalLogLine(url: string, purpose: ExternalLinkPurpose, verdict: ExternalLinkVerdict): string | null {
  if (verdict.open) return null;
  return `external link refused (${purpose.for}): ${describeLink(url)}: ${verdict.reason}`;
}
