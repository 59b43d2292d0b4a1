import fs from 'node:fs';
import { Command, Option } from 'commander';
import { hasSmtpPassword, saveSmtpSettings, writeSmtpPassword } from '../../invoices/smtp-secrets';
import { clearSmtpSettings, getSmtpSettings, type SmtpSecurity } from '../../store/invoices/smtp';
import { dataDirOption, findTeam, parsePort, resolveDataDir, teamOption, UsageError, withDatabase } from '../program';
import { parseEmail } from './user';

/**
 * `finops smtp set|show|clear`: a team's outgoing mail server for invoice emails. The password goes to the data
 * dir's secret file (0600), read from standard input; it is never printed. Without SMTP, invoice emails wait as
 * awaiting_sync for the remote instance.
 */
export function smtpCommand(): Command {
  const smtp = new Command('smtp');
  smtp
    .command('set')
    .description('set the SMTP server; queued emails waiting for sync are handed to it')
    .addOption(dataDirOption())
    .addOption(teamOption())
    .addOption(new Option('--host <host>', 'SMTP server host name').makeOptionMandatory())
    .addOption(new Option('--port <port>', 'port (465 for tls, 587 for starttls)').argParser(parsePort).makeOptionMandatory())
    .addOption(
      new Option('--security <mode>', 'tls: TLS from the start; starttls: upgrade required; none: plain (local relays only)')
        .choices(['tls', 'starttls', 'none'])
        .default('starttls'),
    )
    .addOption(new Option('--user <user>', 'user name to authenticate with'))
    .addOption(new Option('--password-stdin', 'read the password from standard input (stored in the data dir secret file, 0600)'))
    .addOption(new Option('--from <email>', 'sender address').argParser(parseEmail).makeOptionMandatory())
    .addOption(new Option('--from-name <name>', 'sender name (default: the team name)'))
    .action(
      (opts: {
        dataDir?: string;
        team: string;
        host: string;
        port: number;
        security: SmtpSecurity;
        user?: string;
        passwordStdin?: boolean;
        from: string;
        fromName?: string;
      }) => {
        if (opts.passwordStdin && !opts.user) throw new UsageError('--password-stdin goes with --user');
        const password = opts.passwordStdin ? fs.readFileSync(0, 'utf8').replace(/\r?\n$/, '') : undefined;
        withDatabase(opts, (db) => {
          const team = findTeam(db, opts.team);
          const dataDir = resolveDataDir(opts);
          const s = saveSmtpSettings(
            db,
            dataDir,
            team.id,
            {
              host: opts.host,
              port: opts.port,
              security: opts.security,
              username: opts.user ?? null,
              fromAddress: opts.from,
              fromName: opts.fromName ?? null,
            },
            password,
          );
          process.stdout.write(`SMTP for ${team.name}: ${s.security} ${s.host}:${s.port} from ${s.fromAddress}\n`);
        });
      },
    );
  smtp
    .command('show')
    .description("print a team's SMTP settings (never the password)")
    .addOption(dataDirOption())
    .addOption(teamOption())
    .action((opts: { dataDir?: string; team: string }) => {
      withDatabase(opts, (db) => {
        const team = findTeam(db, opts.team);
        const s = getSmtpSettings(db, team.id);
        const hasPassword = hasSmtpPassword(resolveDataDir(opts), team.id);
        process.stdout.write(
          s
            ? `${JSON.stringify({ ...s, password: hasPassword ? 'set' : 'not set' }, null, 2)}\n`
            : 'not configured: invoice emails wait as awaiting_sync\n',
        );
      });
    });
  smtp
    .command('clear')
    .description("remove a team's SMTP settings and password; queued emails wait for sync again")
    .addOption(dataDirOption())
    .addOption(teamOption())
    .action((opts: { dataDir?: string; team: string }) => {
      withDatabase(opts, (db) => {
        const team = findTeam(db, opts.team);
        const had = clearSmtpSettings(db, team.id);
        writeSmtpPassword(resolveDataDir(opts), team.id, null);
        process.stdout.write(had ? `SMTP settings of ${team.name} removed\n` : `${team.name} had no SMTP settings\n`);
      });
    });
  return smtp;
}
