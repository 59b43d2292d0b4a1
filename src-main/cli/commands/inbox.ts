import fs from 'node:fs';
import { Command, Option } from 'commander';
import { InboxIntake, type IntakeKind } from '../../inbox-ingest/runner';
import {
  inboxSourcesView,
  removeSource,
  renewCallbackSecret,
  setImapMailbox,
  setWatchedFolder,
} from '../../inbox-ingest/settings';
import { openDataDir } from '../../runtime/data-dir';
import { InvalidReference } from '../../store/errors';
import type { ImapSecurity } from '../../store/inbox/sources';
import { dataDirOption, findTeam, parsePort, resolveDataDir, teamOption, UsageError, withDatabase } from '../program';

/**
 * `finops inbox`: where a team's receipts arrive besides uploads (docs/decisions/0150-inbox-ingestion.md): a watched
 * folder, an IMAP mailbox (the password read from standard input into the data dir's secret file, never printed),
 * the inbound e-mail callback (its secret printed once when made), and `fetch`, one look and fetch now (a server
 * does them by itself; both claim each team's source with a lease, so they never take the same mail twice).
 */

interface Common {
  dataDir?: string;
  team: string;
}

/** Runs a settings change, a bad value being a usage error (exit 2) like a bad flag. */
function settle<T>(opts: Common, run: (db: import('../../store/db').Db, teamId: string, dataDir: string) => T): T {
  return withDatabase(opts, (db) => {
    try {
      return run(db, findTeam(db, opts.team).id, resolveDataDir(opts));
    } catch (err) {
      if (err instanceof InvalidReference) throw new UsageError(err.message);
      throw err;
    }
  });
}

const print = (value: unknown): void => {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
};

export function inboxCommand(): Command {
  const inbox = new Command('inbox');
  inbox
    .command('show')
    .description("print a team's inbox sources (never a secret), their last run, and what came in lately")
    .addOption(dataDirOption())
    .addOption(teamOption())
    .action((opts: Common) => settle(opts, (db, teamId, dataDir) => print(inboxSourcesView(db, dataDir, teamId))));

  inbox
    .command('watch')
    .description('watch a folder: each receipt dropped there becomes an inbox item (--off: stop)')
    .addOption(dataDirOption())
    .addOption(teamOption())
    .addOption(new Option('--path <dir>', 'absolute path of the folder').conflicts('off'))
    .addOption(new Option('--off', 'stop watching'))
    .action((opts: Common & { path?: string; off?: boolean }) =>
      settle(opts, (db, teamId, dataDir) => {
        if (opts.off) {
          const had = removeSource(db, dataDir, teamId, 'folder');
          process.stdout.write(had ? 'folder no longer watched\n' : 'no folder was watched\n');
          return;
        }
        if (!opts.path) throw new UsageError('give --path <dir>, or --off');
        process.stdout.write(`watching ${setWatchedFolder(db, teamId, opts.path).config.path}\n`);
      }),
    );

  const imap = inbox.command('imap').description('a mailbox fetched over IMAP: the attachments of each mail become inbox items');
  imap
    .command('set')
    .description('set the mailbox (read-only: nothing is marked, moved or deleted)')
    .addOption(dataDirOption())
    .addOption(teamOption())
    .addOption(new Option('--host <host>', 'IMAP server host name').makeOptionMandatory())
    .addOption(new Option('--port <port>', 'port (993 for tls, 143 for starttls)').argParser(parsePort).makeOptionMandatory())
    .addOption(
      new Option('--security <mode>', 'tls: TLS from the start; starttls: upgrade required; none: plain (a local server only)')
        .choices(['tls', 'starttls', 'none'])
        .default('tls'),
    )
    .addOption(new Option('--user <user>', 'user name').makeOptionMandatory())
    .addOption(new Option('--mailbox <name>', 'the folder to fetch').default('INBOX'))
    .addOption(new Option('--password-stdin', 'read the password from standard input (kept in the data dir secret file, 0600)'))
    .action(
      (
        opts: Common & {
          host: string;
          port: number;
          security: ImapSecurity;
          user: string;
          mailbox: string;
          passwordStdin?: boolean;
        },
      ) => {
        const password = opts.passwordStdin ? fs.readFileSync(0, 'utf8').replace(/\r?\n$/, '') : undefined;
        if (password === '') throw new UsageError('the password read from standard input is empty');
        settle(opts, (db, teamId, dataDir) => {
          const { host, port, security, user, mailbox } = opts;
          const s = setImapMailbox(db, dataDir, teamId, { host, port, security, user, mailbox }, password);
          const view = inboxSourcesView(db, dataDir, teamId).imap;
          process.stdout.write(
            `fetching ${s.config.mailbox} of ${s.config.user} at ${s.config.security} ${s.config.host}:${s.config.port}` +
              `${view?.passwordSet ? '' : ' (no password yet: --password-stdin)'}\n`,
          );
        });
      },
    );
  imap
    .command('clear')
    .description('stop fetching the mailbox; its password goes too')
    .addOption(dataDirOption())
    .addOption(teamOption())
    .action((opts: Common) =>
      settle(opts, (db, teamId, dataDir) => {
        const had = removeSource(db, dataDir, teamId, 'imap');
        process.stdout.write(had ? 'mailbox no longer fetched\n' : 'no mailbox was set\n');
      }),
    );

  const callback = inbox
    .command('callback')
    .description('the inbound e-mail callback a mail provider posts to (POST /webhook/inbox/ADDRESS, signed)');
  callback
    .command('new')
    .description('make (or replace) its signing secret, printed once; the address is kept')
    .addOption(dataDirOption())
    .addOption(teamOption())
    .action((opts: Common) => settle(opts, (db, teamId, dataDir) => print(renewCallbackSecret(db, dataDir, teamId))));
  callback
    .command('off')
    .description('turn the callback off: calls to its address are refused')
    .addOption(dataDirOption())
    .addOption(teamOption())
    .action((opts: Common) =>
      settle(opts, (db, teamId, dataDir) => {
        const had = removeSource(db, dataDir, teamId, 'webhook');
        process.stdout.write(had ? 'callback turned off\n' : 'there was no callback\n');
      }),
    );

  inbox
    .command('fetch')
    .description('look at the watched folders and fetch the mailboxes now (of one team, or all)')
    .addOption(dataDirOption())
    .addOption(teamOption(false))
    .action(async (opts: { dataDir?: string; team?: string }) => {
      const dataDir = resolveDataDir(opts);
      const db = openDataDir(dataDir);
      try {
        const teamId = opts.team ? findTeam(db, opts.team).id : undefined;
        // Extraction of what came in is left to the server (or the next one started on this data dir).
        const intake = new InboxIntake(db, dataDir);
        let failed = false;
        for (const kind of ['folder', 'imap'] as IntakeKind[]) {
          for (const o of await intake.round(kind, teamId)) {
            failed ||= o.error !== null;
            process.stdout.write(`${JSON.stringify(o)}\n`);
          }
        }
        if (failed) process.exitCode = 1;
      } finally {
        db.close();
      }
    });
  return inbox;
}
