import { Command, CommanderError } from 'commander';
import { installClockFromEnv } from '../clock';
import { SERVER_VERSION } from '../version';
import { configure, UsageError } from './exit-codes';
import { COMMANDS, commandNamed, loadCommand } from './registry';

/**
 * `finops`: the command line of Finops Desk (commands: ./registry.ts; see the README). Only the command `argv` names
 * is loaded; the others stand in by name and description for `finops --help`.
 */
export async function buildProgram(argv: readonly string[]): Promise<Command> {
  const program = new Command('finops')
    .description('Finops Desk: offline-first finance operations — local v1 server, sync and tools')
    .version(SERVER_VERSION);
  const named = commandNamed(argv);
  for (const entry of COMMANDS) {
    program.addCommand(entry === named ? await loadCommand(entry) : new Command(entry.name).description(entry.description));
  }
  // A command on the desktop app's data dir judges outbound requests and watched folders as the app does. Loaded
  // only when a command runs: `finops --help` loads the CLI and commander alone (test/main/cli/launcher.test.ts).
  program.hook('preAction', async (_program, action) => {
    if (action.name() === 'serve') return;
    const [{ adoptDesktopOperator }, { resolveDataDir }] = await Promise.all([
      import('../desktop/beside-the-app'),
      import('./program'),
    ]);
    const { dataDir } = action.opts() as { dataDir?: unknown };
    adoptDesktopOperator(resolveDataDir({ dataDir: typeof dataDir === 'string' ? dataDir : undefined }));
  });
  return configure(program);
}

export async function main(argv: string[]): Promise<number> {
  try {
    const program = await buildProgram(argv);
    await program.parseAsync(argv, { from: 'user' });
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.help' || err.code === 'commander.version') return 0;
      // Commander has already printed its one-line message.
      return 2;
    }
    if (err instanceof UsageError) {
      process.stderr.write(`error: ${err.message}\n`);
      return 2;
    }
    process.stderr.write(`error: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
}

if (require.main === module) {
  try {
    installClockFromEnv();
  } catch (err) {
    process.stderr.write(`error: ${(err as Error).message}\n`);
    process.exit(2);
  }
  main(process.argv.slice(2)).then((code) => process.exit(code));
}
