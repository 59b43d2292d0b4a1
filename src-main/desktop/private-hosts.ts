/**
 * The private network addresses the desktop app's user lets outbound requests reach — workflows' HTTP calls, sync,
 * the mail server and mailbox (docs/decisions/0191-desktop-private-hosts.md). In the desktop app the user is the
 * operator (0176), so this is the desktop's `finops serve --allow-private-hosts`, set in Settings instead of on a
 * command line: an accountant cannot set an environment variable.
 *
 * - Kept by the shell in `private-hosts.json` in the app's folder (`{"entries": ["192.168.1.10:587"]}`), written
 *   atomically; never in the data dir and never reachable over HTTP, so no team, key or page of the local server
 *   can widen it. The shell hands it to the server host in its start message and, when it changes, in an
 *   `operator-settings` message the host applies at once (server-host.ts).
 * - Each entry follows the rules of `--allow-private-hosts` (outbound/allowance.ts): an address, a CIDR range or a
 *   host name, each optionally `:port`. A list with an entry that is none of these is refused whole, naming every
 *   such entry; entries are trimmed, empty ones dropped, repeats (in any letter case) kept once.
 * - `$FINOPS_ALLOW_PRIVATE_HOSTS`, when set, adds to the saved entries (`allowanceInForce`): whoever set it (an
 *   IT department, a test) meant those to be reachable, and the person adding their mail server means theirs.
 * - A hand-edited file's bad entries are left out when it is read (and reported), rather than refusing every
 *   outbound request as an allowance that cannot be parsed would.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { DesktopPrivateHosts, RefusedPrivateHost, SavePrivateHostsResult } from '../../src-shared/desktop-bridge';
import { ALLOW_PRIVATE_HOSTS_ENV } from '../operator/settings';
import { BadAllowance, parseAllowance } from '../outbound/allowance';

export const PRIVATE_HOSTS_FILE = 'private-hosts.json';
/** Bounds on what a page may hand the shell (a list a person types, not a block list). */
export const MAX_ENTRIES = 200;
export const MAX_ENTRY_LENGTH = 300;

/** The input is not a list of text entries at all (a caller's mistake, not a person's). */
export class InvalidPrivateHostsInput extends Error {
  override name = 'InvalidPrivateHostsInput';
}

export type PrivateHostsCheck = { ok: true; entries: string[] } | { ok: false; refused: RefusedPrivateHost[] };

/** Why one entry is not one, or undefined: the parser of `--allow-private-hosts`, so both refuse alike. */
function problemOf(entry: string): string | undefined {
  if (entry.length > MAX_ENTRY_LENGTH) return `"${entry.slice(0, 40)}…" is longer than ${MAX_ENTRY_LENGTH} characters`;
  // The environment's list is comma-separated: an entry with a comma would mean two there.
  if (entry.includes(',')) return `"${entry}" holds a comma: give each entry on its own`;
  try {
    parseAllowance([entry]);
    return undefined;
  } catch (err) {
    if (err instanceof BadAllowance) return err.message;
    throw err;
  }
}

/** The entries as they are kept (trimmed, without empty ones or repeats), or every one that is refused. */
export function checkPrivateHosts(input: unknown): PrivateHostsCheck {
  if (!Array.isArray(input) || input.some((e) => typeof e !== 'string')) {
    throw new InvalidPrivateHostsInput('the private hosts must be a list of text entries');
  }
  if (input.length > MAX_ENTRIES) throw new InvalidPrivateHostsInput(`at most ${MAX_ENTRIES} private hosts may be given`);
  const entries = distinct((input as string[]).map((e) => e.trim()).filter(Boolean));
  const refused = entries.flatMap((entry) => {
    const message = problemOf(entry);
    return message === undefined ? [] : [{ entry, message }];
  });
  return refused.length > 0 ? { ok: false, refused } : { ok: true, entries };
}

function distinct(entries: readonly string[]): string[] {
  const seen = new Set<string>();
  return entries.filter((e) => {
    const key = e.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The usable entries of a list kept elsewhere (the file, a message), and the ones left out. */
export function usablePrivateHosts(entries: readonly unknown[]): { entries: string[]; ignored: RefusedPrivateHost[] } {
  const texts = distinct(
    entries
      .filter((e): e is string => typeof e === 'string')
      .map((e) => e.trim())
      .filter(Boolean),
  );
  const ignored: RefusedPrivateHost[] = [];
  const usable = texts.filter((entry) => {
    const message = problemOf(entry);
    if (message !== undefined) ignored.push({ entry, message });
    return message === undefined;
  });
  return { entries: usable.slice(0, MAX_ENTRIES), ignored };
}

/** What the file holds: nothing when it is absent or damaged (the app then allows no private address of its own). */
export function loadPrivateHosts(file: string): { entries: string[]; ignored: RefusedPrivateHost[] } {
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return { entries: [], ignored: [] };
  }
  const entries = (raw as { entries?: unknown } | null)?.entries;
  return Array.isArray(entries) ? usablePrivateHosts(entries) : { entries: [], ignored: [] };
}

/** Replaces the file whole (a crash leaves the old one or the new one, never half of either). */
export function savePrivateHosts(file: string, entries: readonly string[]): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, `${JSON.stringify({ entries }, null, 2)}\n`);
  fs.renameSync(tmp, file);
}

/** The entries of `$FINOPS_ALLOW_PRIVATE_HOSTS` (comma-separated, as operator/settings.ts reads them). */
export function environmentPrivateHosts(env: NodeJS.ProcessEnv): string[] {
  return (env[ALLOW_PRIVATE_HOSTS_ENV] ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** What the server host allows: the environment's entries and the app's, each once. */
export function allowanceInForce(saved: readonly string[], env: NodeJS.ProcessEnv): string[] {
  return distinct([...environmentPrivateHosts(env), ...saved]);
}

/**
 * The setting as the shell holds it: read from its file once, saved and applied (`apply`: to the running host)
 * when the person changes it. What the IPC handlers call.
 */
export class PrivateHostsSetting {
  private saved: string[];
  /** Entries of the file left out when it was read (the shell logs them). */
  readonly ignoredAtLoad: RefusedPrivateHost[];
  private apply: (entries: string[]) => void = () => {};

  constructor(
    private readonly file: string,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {
    const loaded = loadPrivateHosts(file);
    this.saved = loaded.entries;
    this.ignoredAtLoad = loaded.ignored;
  }

  /** The saved entries (what the server host's start message carries). */
  get entries(): string[] {
    return [...this.saved];
  }

  /** Where a change goes once saved (the supervisor, when there is one). */
  onChange(apply: (entries: string[]) => void): void {
    this.apply = apply;
  }

  get(): DesktopPrivateHosts {
    return { entries: this.entries, fromEnvironment: environmentPrivateHosts(this.env) };
  }

  /** Saves and applies the list when every entry is one; else changes nothing and names the refused ones. */
  set(input: unknown): SavePrivateHostsResult {
    const checked = checkPrivateHosts(input);
    if (!checked.ok) return checked;
    savePrivateHosts(this.file, checked.entries);
    this.saved = checked.entries;
    this.apply(this.entries);
    return { ok: true, saved: this.get() };
  }
}
