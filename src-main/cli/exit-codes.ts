import type { Command } from 'commander';

/**
 * The exit codes of `finops`: 0 success, 1 runtime failure, 2 usage error (unknown flag, bad value, missing
 * argument) with a one-line message on stderr. Kept apart from ./program.ts, which opens databases, so that the
 * entry point loads nothing heavy before it knows the command.
 */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** Commander with our exit-code rules applied to a command and all its subcommands. */
export function configure(cmd: Command): Command {
  cmd
    .exitOverride()
    .showHelpAfterError(false)
    .configureOutput({ writeErr: (s) => process.stderr.write(s) });
  cmd.commands.forEach(configure);
  return cmd;
}
