import fs from 'node:fs';
import { Command, InvalidArgumentError, Option } from 'commander';
import { z } from 'zod';
import { ensureTeam } from '../../store/teams/teams';
import { createUser, findUserByEmail, hashPassword, MIN_PASSWORD_LENGTH, type Role } from '../../store/users/users';
import { dataDirOption, teamOption, UsageError, withDatabase } from '../program';

const Email = z.email();

export function parseEmail(value: string): string {
  const email = value.trim();
  if (!Email.safeParse(email).success) throw new InvalidArgumentError('must be an email address');
  return email;
}

/** The password from exactly one of --password / --password-stdin; one trailing newline of stdin is dropped. */
function readPassword(opts: { password?: string; passwordStdin?: boolean }): string {
  if (opts.password !== undefined && opts.passwordStdin)
    throw new UsageError('give either --password or --password-stdin, not both');
  if (opts.password === undefined && !opts.passwordStdin)
    throw new UsageError('a password is needed: --password-stdin or --password');
  const password = opts.passwordStdin ? fs.readFileSync(0, 'utf8').replace(/\r?\n$/, '') : (opts.password ?? '');
  if (password.length < MIN_PASSWORD_LENGTH)
    throw new UsageError(`the password must have at least ${MIN_PASSWORD_LENGTH} characters`);
  return password;
}

export function userCommand(): Command {
  const user = new Command('user');
  user
    .command('create')
    .description('create a user with a password as a member of a team (creates the team if absent); prints the user as JSON')
    .addOption(dataDirOption())
    .addOption(teamOption())
    .addOption(new Option('--email <email>', 'sign-in email (unique)').argParser(parseEmail).makeOptionMandatory())
    .addOption(new Option('--password-stdin', 'read the password from standard input (preferred: keeps it out of shell history)'))
    .addOption(new Option('--password <password>', `the password (at least ${MIN_PASSWORD_LENGTH} characters)`))
    .addOption(new Option('--name <name>', 'full name (default: the part of the email before @)'))
    .addOption(
      new Option('--role <role>', "role in the team (default: owner for the team's first member, member otherwise)").choices([
        'owner',
        'member',
      ]),
    )
    .action(
      async (opts: {
        dataDir?: string;
        team: string;
        email: string;
        password?: string;
        passwordStdin?: boolean;
        name?: string;
        role?: Role;
      }) => {
        const passwordHash = await hashPassword(readPassword(opts));
        withDatabase(opts, (db) => {
          if (findUserByEmail(db, opts.email)) throw new Error(`a user with email ${opts.email} already exists`);
          const team = ensureTeam(db, opts.team);
          const { user: created, membership } = createUser(db, team.id, {
            email: opts.email,
            passwordHash,
            fullName: opts.name,
            role: opts.role,
          });
          process.stdout.write(
            `${JSON.stringify({ id: created.id, email: created.email, fullName: created.fullName, teamId: team.id, role: membership.role })}\n`,
          );
        });
      },
    );
  return user;
}
