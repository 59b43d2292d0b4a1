import { Command, InvalidArgumentError, Option } from 'commander';
import { parseScopeList, type Scope } from '../../../src-shared/contract/scopes';
import { createApiKey, listApiKeys, revokeApiKey } from '../../store/auth/api-keys';
import { ensureTeam, findTeamByName } from '../../store/teams/teams';
import { dataDirOption, teamOption, withDatabase } from '../program';

export function parseScopes(value: string): Scope[] {
  const { scopes, unknown } = parseScopeList(value);
  if (unknown.length) throw new InvalidArgumentError(`unknown scope(s): ${unknown.join(', ')}`);
  if (!scopes.length) throw new InvalidArgumentError('at least one scope is needed');
  return scopes;
}

export function tokenCommand(): Command {
  const token = new Command('token');
  token
    .command('create')
    .description('create an API key and print it (shown only this once); creates the team if absent')
    .addOption(dataDirOption())
    .addOption(teamOption())
    .addOption(new Option('--scopes <scopes>', 'comma-separated scopes').argParser(parseScopes).default(['apis.all'], 'apis.all'))
    .addOption(new Option('--name <name>', 'a name to recognise the key by').default('cli'))
    .action((opts: { dataDir?: string; team: string; scopes: Scope[]; name: string }) => {
      withDatabase(opts, (db) => {
        const team = ensureTeam(db, opts.team);
        const { key } = createApiKey(db, { teamId: team.id, name: opts.name, scopes: opts.scopes });
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
