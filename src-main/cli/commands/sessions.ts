import { Command, Option } from 'commander';
import { listUserSessions, revokeUserSessions } from '../../store/auth/sessions';
import { findUserByEmail } from '../../store/users/users';
import { dataDirOption, UsageError, withDatabase } from '../program';
import { parseEmail } from './user';

/**
 * `finops sessions`: a user's web sign-in sessions (docs/decisions/0110), listed or signed out from the server
 * machine — for a lost laptop, or a person leaving. Works beside a running server: its next request is refused.
 */
export function sessionsCommand(): Command {
  const sessions = new Command('sessions');
  const email = () => new Option('--email <email>', 'the user').argParser(parseEmail).makeOptionMandatory();

  sessions
    .command('list')
    .description('live sessions of a user, newest first, as JSON lines (never the session secret)')
    .addOption(dataDirOption())
    .addOption(email())
    .action((opts: { dataDir?: string; email: string }) =>
      withDatabase(opts, (db) => {
        const user = findUserByEmail(db, opts.email);
        if (!user) throw new UsageError(`no user with email ${opts.email}`);
        for (const s of listUserSessions(db, user.id)) {
          process.stdout.write(
            `${JSON.stringify({
              id: s.id,
              team: s.teamName,
              createdAt: s.createdAt,
              lastSeenAt: new Date(s.lastSeenAt).toISOString(),
              expiresAt: new Date(Math.min(s.expiresAt, s.idleExpiresAt)).toISOString(),
              userAgent: s.userAgent,
              ip: s.ip,
            })}\n`,
          );
        }
      }),
    );

  sessions
    .command('revoke')
    .description('sign a user out of every browser (prints how many sessions ended)')
    .addOption(dataDirOption())
    .addOption(email())
    .action((opts: { dataDir?: string; email: string }) =>
      withDatabase(opts, (db) => {
        const user = findUserByEmail(db, opts.email);
        if (!user) throw new UsageError(`no user with email ${opts.email}`);
        process.stdout.write(`${revokeUserSessions(db, user.id)}\n`);
      }),
    );
  return sessions;
}
