import { Command, CommanderError } from 'commander';
import { SERVER_VERSION } from '../server/version';
import { DatabaseTooNew } from '../store/db';
import { NotFound } from '../store/errors';
import { demoCommand } from './commands/demo';
import { importCommand } from './commands/import';
import { invoicesCommand } from './commands/invoices';
import { ledgerCommand } from './commands/ledger';
import { oauthClientCommand } from './commands/oauth-client';
import { ratesCommand } from './commands/rates';
import { recurringCommand, rulesCommand } from './commands/rules';
import { serveCommand } from './commands/serve';
import { sessionsCommand } from './commands/sessions';
import { smtpCommand } from './commands/smtp';
import { tokenCommand } from './commands/token';
import { userCommand } from './commands/user';
import { workflowCommand } from './commands/workflow';
import { configure, UsageError } from './program';

/** `finops`: the command line of Finops Desk. Every command is registered here; see the README. */
export function buildProgram(): Command {
  const program = new Command('finops')
    .description('Finops Desk: offline-first finance operations — local v1 server, sync and tools')
    .version(SERVER_VERSION)
    .addCommand(serveCommand())
    .addCommand(tokenCommand());
  // [user / oauth-client commands register here]
  program.addCommand(userCommand()).addCommand(oauthClientCommand());
  // [web sign-in sessions]
  program.addCommand(sessionsCommand());
  // [invoices: smtp settings and background work]
  program.addCommand(smtpCommand()).addCommand(invoicesCommand());
  // [import command registers here]
  program.addCommand(importCommand());
  // [demo command registers here]
  program.addCommand(demoCommand());
  // [ledger and exchange-rate commands register here]
  program.addCommand(ledgerCommand()).addCommand(ratesCommand());
  // [rules and recurring commands register here]
  program.addCommand(rulesCommand()).addCommand(recurringCommand());
  // [workflow command registers here]
  program.addCommand(workflowCommand());
  const apply = (cmd: Command) => {
    configure(cmd);
    cmd.commands.forEach(apply);
  };
  apply(program);
  return program;
}

export async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
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
    const message =
      err instanceof DatabaseTooNew || err instanceof NotFound ? err.message : err instanceof Error ? err.message : String(err);
    process.stderr.write(`error: ${message}\n`);
    return 1;
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).then((code) => process.exit(code));
}
