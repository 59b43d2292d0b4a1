import { Command, InvalidArgumentError, Option } from 'commander';
import { parseScopeList, type Scope } from '../../../src-shared/contract/scopes';
import { createApiKey, listApiKeys, revokeApiKey } from '../../store/auth/api-keys';
import type { Db } from '../../store/db';
import { ensureTeam, findTeamByName } from '../../store/teams/teams';
import { findUserByEmail, getMembership } from '../../store/users/users';
import { dataDirOption, teamOption, UsageError, withDatabase } from '../program';
import { parseEmail } from './user';

export function parseScopes(value: string): Scope[] {
  const { scopes, unknown } = parseScopeList(value);
  if (unknown.length) throw new InvalidArgumentError(`unknown scope(s): ${unknown.join(', ')}`);
  if (!scopes.length) throw new InvalidArgumentError('at least one scope is needed');
  return scopes;
}

/**
 * The team a new key belongs to (made when absent) and the member it acts for, if one is named: that member's team
 * must exist already. A usage error when the email is no member's (the key would act for no one).
 */
function keyHolder(db: Db, teamName: string, email: string | undefined): { teamId: string; userId: string | null } {
  if (email === undefined) return { teamId: ensureTeam(db, teamName).id, userId: null };
  const team = findTeamByName(db, teamName);
  const user = findUserByEmail(db, email);
  if (!team || !user || !getMembership(db, team.id, user.id)) {
    throw new UsageError(`${email} is not a member of team ${teamName} (add one with finops user create)`);
  }
  return { teamId: team.id, userId: user.id };
}

export function tokenCommand(): Command {
  const token = new Command('token');
  token
    .command('create')
    .description('create an API key and print it (shown only this once); creates the team if absent (unless --user)')
    .addOption(dataDirOption())
    .addOption(teamOption())
    .addOption(new Option('--scopes <scopes>', 'comma-separated scopes').argParser(parseScopes).default(['apis.all'], 'apis.all'))
    .addOption(new Option('--name <name>', 'a name to recognise the key by').default('cli'))
    .addOption(
      new Option(
        '--user <email>',
        "the member the key acts for (/users/me, the timer, notifications); default the team's owner",
      ).argParser(parseEmail),
    )
    .action((opts: { dataDir?: string; team: string; scopes: Scope[]; name: string; user?: string }) => {
      withDatabase(opts, (db) => {
        const { key } = createApiKey(db, { ...keyHolder(db, opts.team, opts.user), name: opts.name, scopes: opts.scopes });
        process.stdout.write(`${key}\n`);
      });
    });
  token
    .command('revoke')
    .description('revoke an API key, given its id or the key itself')
    .argument('<key-or-id>')
    .addOption(dataDirOption())
    .action((keyOrId: string, opts: { dataDir?: string }) => {
      withDatabase(opts, (db) => {
        const key = revokeApiKey(db, keyOrId);
        process.stdout.write(`revoked ${key.id} (${key.name}, …${key.hint})\n`);
      });
    });
  token
    .command('list')
    .description("list a team's API keys (never the keys themselves)")
    .addOption(dataDirOption())
    .addOption(teamOption())
    .action((opts: { dataDir?: string; team: string }) => {
      withDatabase(opts, (db) => {
        const team = findTeamByName(db, opts.team);
        const keys = team ? listApiKeys(db, team.id) : [];
        for (const k of keys) {
          process.stdout.write(
            `${k.id}\t${k.name}\t…${k.hint}\t${k.scopes.join(',')}\t${k.revokedAt ? `revoked ${k.revokedAt}` : `last used ${k.lastUsedAt ?? 'never'}`}\n`,
          );
        }
      });
    });
  return token;
}
