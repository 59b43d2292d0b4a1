import { Command, InvalidArgumentError, Option } from 'commander';
import type { Scope } from '../../../src-shared/contract/scopes';
import { checkRedirectUri, REDIRECT_URI_PROBLEMS } from '../../store/auth/oauth/checks';
import { createClient, listClients } from '../../store/auth/oauth/clients';
import { ensureTeam, findTeamByName } from '../../store/teams/teams';
import { dataDirOption, teamOption, UsageError, withDatabase } from '../program';
import { parseScopes } from './token';

/** Repeatable --redirect-uri, each checked: absolute, https (http only for loopback), no fragment or credentials. */
export function collectRedirectUri(value: string, previous: string[] = []): string[] {
  const check = checkRedirectUri(value);
  if (check !== 'ok') throw new InvalidArgumentError(`${value} ${REDIRECT_URI_PROBLEMS[check]}`);
  return [...previous, value];
}

export function oauthClientCommand(): Command {
  const cmd = new Command('oauth-client');
  cmd
    .command('create')
    .description(
      'register a client for a team and print {"client_id","client_secret"} as JSON (the secret only this once; null for a public client)',
    )
    .addOption(dataDirOption())
    .addOption(teamOption())
    .addOption(
      new Option('--scopes <scopes>', 'comma-separated scopes the client may request')
        .argParser(parseScopes)
        .makeOptionMandatory(),
    )
    .addOption(
      new Option(
        '--redirect-uri <uri>',
        'allowed redirect URI, matched exactly; repeatable (a public client needs one)',
      ).argParser(collectRedirectUri),
    )
    .addOption(new Option('--public', 'a public client (no secret; must use PKCE; no client_credentials grant)'))
    .addOption(new Option('--name <name>', 'the name shown to users on the consent page').default('OAuth client'))
    .action(
      (opts: { dataDir?: string; team: string; scopes: Scope[]; redirectUri?: string[]; public?: boolean; name: string }) => {
        const redirectUris = opts.redirectUri ?? [];
        if (opts.public && redirectUris.length === 0) throw new UsageError('a public client needs at least one --redirect-uri');
        withDatabase(opts, (db) => {
          const team = ensureTeam(db, opts.team);
          const { client, clientSecret } = createClient(db, team.id, {
            name: opts.name,
            scopes: opts.scopes,
            redirectUris,
            isPublic: opts.public === true,
          });
          process.stdout.write(`${JSON.stringify({ client_id: client.clientId, client_secret: clientSecret })}\n`);
        });
      },
    );
  cmd
    .command('list')
    .description("list a team's OAuth clients as JSON lines (never their secrets)")
    .addOption(dataDirOption())
    .addOption(teamOption())
    .action((opts: { dataDir?: string; team: string }) => {
      withDatabase(opts, (db) => {
        const team = findTeamByName(db, opts.team);
        for (const c of team ? listClients(db, team.id) : []) {
          process.stdout.write(
            `${JSON.stringify({ client_id: c.clientId, name: c.name, public: c.isPublic, scopes: c.scopes, redirect_uris: c.redirectUris })}\n`,
          );
        }
      });
    });
  return cmd;
}
