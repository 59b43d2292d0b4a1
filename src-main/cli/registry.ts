import type { Command } from 'commander';

/**
 * Every command of `finops`, in the order `finops --help` lists them: its name and one-line description here, its
 * module loaded only when the command runs (or shows its own help), so `finops --help` loads none of them
 * (docs/decisions/0008-compiled-cli.md). A command module builds the command's options and subcommands; the
 * description lives here alone.
 */
export interface CommandEntry {
  name: string;
  description: string;
  load(): Promise<Command>;
}

export const COMMANDS: readonly CommandEntry[] = [
  {
    name: 'serve',
    description: 'run the headless v1 server (API at http://HOST:PORT/v1, web UI at /)',
    load: async () => (await import('./commands/serve')).serveCommand(),
  },
  { name: 'token', description: 'manage API keys', load: async () => (await import('./commands/token')).tokenCommand() },
  {
    name: 'user',
    description: 'manage local users (they sign in on the OAuth authorize page)',
    load: async () => (await import('./commands/user')).userCommand(),
  },
  {
    name: 'oauth-client',
    description: 'manage OAuth 2.0 clients (applications using /v1/oauth)',
    load: async () => (await import('./commands/oauth-client')).oauthClientCommand(),
  },
  {
    name: 'sessions',
    description: "a user's web sign-in sessions: list them or sign them out",
    load: async () => (await import('./commands/sessions')).sessionsCommand(),
  },
  {
    name: 'smtp',
    description: "a team's outgoing mail server for invoice emails and reminders",
    load: async () => (await import('./commands/smtp')).smtpCommand(),
  },
  {
    name: 'inbox',
    description: "where a team's receipts arrive: a watched folder, an IMAP mailbox, the inbound e-mail callback",
    load: async () => (await import('./commands/inbox')).inboxCommand(),
  },
  {
    name: 'invoices',
    description: 'invoice background work',
    load: async () => (await import('./commands/invoices')).invoicesCommand(),
  },
  {
    name: 'backup',
    description: 'back up a data dir into one archive (consistent while a server writes); list backups; the schedule',
    load: async () => (await import('./commands/backup')).backupCommand(),
  },
  {
    name: 'restore',
    description: 'put a backup back into a data dir (verified first; an occupied data dir only with --force)',
    load: async () => (await import('./commands/restore')).restoreCommand(),
  },
  {
    name: 'import',
    description: 'import a bank file (CSV, OFX/QFX, camt.052/053/054, MT940) into an account; subcommands manage batches',
    load: async () => (await import('./commands/import')).importCommand(),
  },
  {
    name: 'demo',
    description: 'seed a team with a realistic, deterministic demo data set (a small agency, ~30 months)',
    load: async () => (await import('./commands/demo')).demoCommand(),
  },
  {
    name: 'ledger',
    description: "check or rebuild the ledger's derived data (balances, roll-up…)",
    load: async () => (await import('./commands/ledger')).ledgerCommand(),
  },
  {
    name: 'rates',
    description: 'exchange rates used for base-currency figures',
    load: async () => (await import('./commands/rates')).ratesCommand(),
  },
  {
    name: 'rules',
    description: 'categorization rules: list, add, preview, run, lint, suggestions',
    load: async () => (await import('./commands/rules')).rulesCommand(),
  },
  {
    name: 'recurring',
    description: 'recurring series detected from history',
    load: async () => (await import('./commands/rules')).recurringCommand(),
  },
  {
    name: 'sync',
    description: 'sync a team with its remote v1 instance (one round); its status, conflicts, and taking a side',
    load: async () => (await import('./commands/sync')).syncCommand(),
  },
  {
    name: 'workflow',
    description: 'workflow definitions and runs',
    load: async () => (await import('./commands/workflow')).workflowCommand(),
  },
  // [commands of later areas register here]
];

/** The command `argv` runs or asks help for (`finops import …`, `finops help import`), if it names one. */
export function commandNamed(argv: readonly string[]): CommandEntry | undefined {
  const words = argv.filter((a) => !a.startsWith('-'));
  const name = words[0] === 'help' ? words[1] : words[0];
  return COMMANDS.find((c) => c.name === name);
}

/** The command with its options and subcommands, from its module. */
export async function loadCommand(entry: CommandEntry): Promise<Command> {
  const cmd = await entry.load();
  if (cmd.name() !== entry.name) throw new Error(`the module of "${entry.name}" builds a command named "${cmd.name()}"`);
  return cmd.description(entry.description);
}
