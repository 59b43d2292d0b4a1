import path from 'node:path';

/**
 * What the operator of this process decided at start, and nobody else can change while it runs (docs/decisions/
 * 0176-operator-versus-team.md): which private addresses outbound requests may reach, and under which folders a
 * team may have its receipts watched. A team owner chooses only within these.
 *
 * `finops serve --allow-private-hosts … --inbox-root …` sets them for the server; every process (the CLI beside it
 * included) otherwise reads the environment, `FINOPS_ALLOW_PRIVATE_HOSTS` (comma-separated) and
 * `FINOPS_INBOX_ROOTS` (folders separated by the platform's path delimiter), so a command advancing a run or
 * fetching a mailbox decides as the server would. The desktop app's user is its operator (server-host.ts).
 */
export interface OperatorSettings {
  /**
   * Entries allowing private, loopback, link-local and other non-public addresses to outbound requests: an address,
   * a CIDR range, or a host name (its private addresses), each optionally with `:port` (outbound/allowance.ts).
   */
  allowPrivateHosts: readonly string[];
  /** Folders under which watched folders may lie; `any`: wherever the user chooses (the desktop app). */
  inboxRoots: readonly string[] | 'any';
}

export const ALLOW_PRIVATE_HOSTS_ENV = 'FINOPS_ALLOW_PRIVATE_HOSTS';
export const INBOX_ROOTS_ENV = 'FINOPS_INBOX_ROOTS';

let configured: Partial<OperatorSettings> = {};

/** The operator's settings in force: those set at start, else the environment's. */
export function operatorSettings(env: NodeJS.ProcessEnv = process.env): OperatorSettings {
  return {
    allowPrivateHosts: configured.allowPrivateHosts ?? splitList(env[ALLOW_PRIVATE_HOSTS_ENV], ','),
    inboxRoots: configured.inboxRoots ?? splitList(env[INBOX_ROOTS_ENV], path.delimiter).map((p) => path.resolve(p)),
  };
}

/** Set once at start (`finops serve`, the desktop host); a field given replaces the environment's value. */
export function configureOperator(settings: Partial<OperatorSettings>): void {
  configured = { ...configured, ...settings };
}

/** Forgets what was configured (tests). */
export function resetOperator(): void {
  configured = {};
}

function splitList(value: string | undefined, separator: string): string[] {
  return (value ?? '')
    .split(separator)
    .map((s) => s.trim())
    .filter(Boolean);
}
