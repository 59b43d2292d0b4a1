import { Command, Option } from 'commander';
import { processSecretStore, secretAccounts } from '../../infra/secret-store';
import { openDataDir } from '../../runtime/data-dir';
import type { Db } from '../../store/db';
import { Conflict, NotFound } from '../../store/errors';
import { listConflicts, type SyncConflict } from '../../store/sync/conflicts';
import { ensureRemote, normalizeBaseUrl, type RemoteKind, removeRemote, teamRemote } from '../../store/sync/remotes';
import { type SyncStatus, syncStatus } from '../../store/sync/status';
import { isSingleTeam } from '../../store/teams/teams';
import { resolveCredential } from '../../sync/credentials';
import { oauthSignIn } from '../../sync/oauth-sign-in';
import { resolveConflict } from '../../sync/resolve';
import { RoundBusy, type RoundResult, runRound } from '../../sync/round';
import { dataDirOption, findTeam, parsePort, progressBar, resolveDataDir, teamOption, UsageError } from '../program';

/**
 * `finops sync`: one full two-way round of a team with its remote (docs/decisions/0140-sync-engine.md), safe beside a
 * running server on the same data dir (the round's lease keeps a scheduled round and this one apart). Progress goes
 * to stderr, the one-line summary to stdout; exit 0 when the round completed, 1 with the reason when it failed.
 * Subcommands show the state, the conflicts with both values, and take a side on one.
 */
interface Common {
  dataDir?: string;
  team?: string;
}

function common<T>(command: Command): T & Common & { team: string } {
  const opts = command.optsWithGlobals() as T & Common;
  if (!opts.team) throw new UsageError('--team is required');
  return opts as T & Common & { team: string };
}

function withDb<T>(opts: Common, run: (db: Db) => Promise<T> | T): Promise<T> {
  const db = openDataDir(resolveDataDir(opts));
  return Promise.resolve()
    .then(() => run(db))
    .finally(() => db.close());
}

function parseKind(value: string): RemoteKind {
  if (value !== 'finops' && value !== 'hosted') throw new UsageError('--kind is finops (a Finops Desk server) or hosted');
  return value;
}

function parseSeconds(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new UsageError('--wait is a whole number of seconds');
  return n;
}

/**
 * Runs the round once the team's round already running (a server's, another command's) has ended: a person who
 * types `finops sync` wants the round, not "busy". Gives up after `waitMs` with the busy error.
 */
async function roundWhenFree(waitMs: number, signal: AbortSignal, run: () => Promise<RoundResult>): Promise<RoundResult> {
  const deadline = Date.now() + waitMs;
  let told = false;
  for (;;) {
    try {
      return await run();
    } catch (err) {
      if (!(err instanceof RoundBusy) || Date.now() >= deadline) throw err;
      if (!told) {
        process.stderr.write(
          'sync: a round of this team is running (the server’s, or another command’s); waiting for it to end…\n',
        );
        told = true;
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
      signal.throwIfAborted();
    }
  }
}

/** The status's first line: what the team's sync comes to (open conflicts are never "up to date"). */
function standingText(s: SyncStatus): string {
  const n = s.openConflicts;
  switch (s.standing) {
    case 'open_conflicts':
      return `${n} open conflict${n === 1 ? '' : 's'} wait${n === 1 ? 's' : ''} for a choice (finops sync conflicts)`;
    case 'up_to_date':
      return 'up to date';
    case 'never_synced':
      return 'not synced yet';
    case 'credentials_expired':
      return 'the remote refused the credential';
    default:
      return s.standing.replaceAll('_', ' ');
  }
}

function conflictLine(c: SyncConflict): string {
  return JSON.stringify({
    id: c.id,
    entity: c.entity,
    record: c.localId,
    kind: c.kind,
    fields: c.fields,
    local: c.local,
    remote: c.remote,
    kept: c.winner,
    rule: c.rule,
    at: c.createdAt,
    ...(c.resolvedAt ? { resolvedAt: c.resolvedAt, took: c.outcome === 'kept_local' ? 'local' : 'remote' } : {}),
  });
}

export function syncCommand(): Command {
  const cmd = new Command('sync')
    .addOption(dataDirOption())
    .addOption(teamOption(false))
    .addOption(new Option('--remote <url>', "the remote's base URL, ending in /v1 (default: the team's remote)"))
    .addOption(new Option('--token <token>', 'the credential for the remote (else $FINOPS_REMOTE_TOKEN, else the OS keychain)'))
    .addOption(
      new Option('--kind <kind>', 'finops (a Finops Desk server: change feed) or hosted (lists are walked)').argParser(parseKind),
    )
    .addOption(new Option('--json', 'print the summary as JSON'))
    .addOption(
      new Option('--wait <seconds>', 'how long to wait for a round already running (the server’s) before giving up')
        .argParser(parseSeconds)
        .default(600),
    )
    .action(async (_opts, command: Command) => {
      const opts = common<{ remote?: string; token?: string; kind?: RemoteKind; json?: boolean; wait: number }>(command);
      await withDb(opts, async (db) => {
        const team = findTeam(db, opts.team);
        const known = teamRemote(db, team.id);
        if (!opts.remote && !known) throw new UsageError('this team has no remote yet: pass --remote URL (ending in /v1)');
        const remote = ensureRemote(db, team.id, { baseUrl: opts.remote ?? known!.baseUrl, kind: opts.kind });
        const { credential } = await resolveCredential(remote.baseUrl, {
          token: opts.token,
          account: remote.credentialRef,
          singleTeam: isSingleTeam(db),
          db,
        });
        const bar = progressBar('sync');
        const controller = new AbortController();
        const stop = () => controller.abort(new Error('interrupted'));
        process.once('SIGINT', stop);
        try {
          const result = await roundWhenFree(opts.wait * 1000, controller.signal, () =>
            runRound({
              db,
              remote: teamRemote(db, team.id) ?? remote,
              credential,
              signal: controller.signal,
              onProgress: (p) => bar(p.done, p.total),
            }),
          );
          const s = result.summary;
          process.stdout.write(
            opts.json
              ? `${JSON.stringify(result)}\n`
              : `pulled ${s.pulled}, pushed ${s.pushed}, conflicts ${s.conflicts}${s.failed ? `, failed ${s.failed}` : ''}\n`,
          );
          if (s.failed) {
            process.stderr.write(
              `sync: the remote failed on ${s.failed} change${s.failed === 1 ? '' : 's'}; ${s.failed === 1 ? 'it is' : 'they are'} sent again next round (finops sync status)\n`,
            );
          }
        } finally {
          process.off('SIGINT', stop);
        }
      });
    });

  cmd
    .command('status')
    .description("the team's remote, its last round, pending changes, progress, conflicts and last error")
    .addOption(dataDirOption())
    .addOption(teamOption(false))
    .addOption(new Option('--json', 'print it as JSON'))
    .action(async (_opts, sub: Command) => {
      const opts = common<{ json?: boolean }>(sub);
      await withDb(opts, (db) => {
        const status = syncStatus(db, findTeam(db, opts.team).id);
        if (opts.json) {
          process.stdout.write(`${JSON.stringify(status)}\n`);
          return;
        }
        if (!status.remote) {
          process.stdout.write('no remote: this team syncs with nothing (finops sync --remote URL --token TOKEN)\n');
          return;
        }
        const r = status.remote;
        const lines = [
          `status: ${standingText(status)}`,
          `remote: ${r.baseUrl} (${r.kind})`,
          `state: ${r.state}${r.state === 'running' && r.progress.phase ? ` — ${r.progress.phase} ${r.progress.done}/${r.progress.total}` : ''}`,
          `last success: ${r.lastSuccessAt ?? 'never'}${r.lastSummary ? ` (pulled ${r.lastSummary.pulled}, pushed ${r.lastSummary.pushed}, conflicts ${r.lastSummary.conflicts})` : ''}`,
          `pending changes: ${status.pendingChanges}`,
          `open conflicts: ${status.openConflicts}`,
          ...(r.lastError ? [`last error: ${r.lastError}`] : []),
        ];
        process.stdout.write(`${lines.join('\n')}\n`);
      });
    });

  cmd
    .command('conflicts')
    .description('the conflicts rounds met, each with both values and the side its rule kept (JSON lines)')
    .addOption(dataDirOption())
    .addOption(teamOption(false))
    .addOption(new Option('--all', 'resolved ones too'))
    .action(async (_opts, sub: Command) => {
      const opts = common<{ all?: boolean }>(sub);
      await withDb(opts, (db) => {
        for (const c of listConflicts(db, findTeam(db, opts.team).id, { all: opts.all })) {
          process.stdout.write(`${conflictLine(c)}\n`);
        }
      });
    });

  cmd
    .command('connect')
    .description(
      'connect the team to a remote and keep its credential in the OS keychain: an API key (--token), or an OAuth sign-in in the browser (--oauth)',
    )
    .addOption(dataDirOption())
    .addOption(teamOption(false))
    .addOption(new Option('--remote <url>', "the remote's base URL, ending in /v1").makeOptionMandatory())
    .addOption(new Option('--kind <kind>', 'finops (a Finops Desk server) or hosted').argParser(parseKind))
    .addOption(new Option('--token <token>', 'an API key of the remote team'))
    .addOption(new Option('--oauth', 'sign in with OAuth (authorization code with PKCE) instead of an API key'))
    .addOption(
      new Option('--client-id <id>', 'the OAuth client registered on the remote (redirect http://127.0.0.1:PORT/callback)'),
    )
    .addOption(
      new Option('--port <port>', "the redirect's loopback port, as registered with the client")
        .argParser(parsePort)
        .default(8765),
    )
    .addOption(new Option('--scope <scopes>', 'space-separated scopes to ask for (default: what the client may have)'))
    .action(async (_opts, sub: Command) => {
      const opts = common<{
        remote: string;
        kind?: RemoteKind;
        token?: string;
        oauth?: boolean;
        clientId?: string;
        port: number;
        scope?: string;
      }>(sub);
      if (!opts.oauth && !opts.token) throw new UsageError('pass --token KEY, or --oauth --client-id ID');
      if (opts.oauth && !opts.clientId)
        throw new UsageError('--oauth needs --client-id (the OAuth client registered on the remote)');
      const { store, fallbackReason } = await processSecretStore();
      if (store.kind !== 'os-keychain') {
        throw new Error(
          `no OS keychain here (${fallbackReason}): pass --token with each \`finops sync\` or set $FINOPS_REMOTE_TOKEN instead`,
        );
      }
      await withDb(opts, async (db) => {
        const team = findTeam(db, opts.team);
        const baseUrl = normalizeBaseUrl(opts.remote);
        const account = secretAccounts.teamSyncToken(team.id, baseUrl);
        let secret = opts.token ?? '';
        if (opts.oauth) {
          const grant = await oauthSignIn({
            baseUrl,
            clientId: opts.clientId!,
            port: opts.port,
            scope: opts.scope,
            open: (url) => {
              process.stderr.write(`Open this address in a browser to sign in to the remote:\n  ${url}\n`);
            },
          });
          secret = JSON.stringify(grant);
        }
        await store.set(account, secret);
        const remote = ensureRemote(db, team.id, {
          baseUrl,
          kind: opts.kind,
          credentialRef: account,
          authKind: opts.oauth ? 'oauth' : 'api_key',
          oauthClientId: opts.clientId ?? null,
        });
        process.stdout.write(`connected to ${remote.baseUrl} (${opts.oauth ? 'OAuth' : 'API key'}, kept in the OS keychain)\n`);
      });
    });

  cmd
    .command('disconnect')
    .description(
      "stop syncing the team with its remote: forgets the remote and what was agreed with it (the team's records stay)",
    )
    .addOption(dataDirOption())
    .addOption(teamOption(false))
    .action(async (_opts, sub: Command) => {
      const opts = common<object>(sub);
      await withDb(opts, async (db) => {
        const team = findTeam(db, opts.team);
        const remote = teamRemote(db, team.id);
        if (!remote) throw new UsageError(`team "${team.name}" has no remote`);
        removeRemote(db, team.id, remote.id);
        // The team's credential goes with it (a server-wide one, shared by teams, stays).
        if (remote.credentialRef) await (await processSecretStore()).store.delete(remote.credentialRef).catch(() => false);
        process.stdout.write(`disconnected from ${remote.baseUrl}\n`);
      });
    });

  cmd
    .command('resolve')
    .description('take one side of conflicts; the values taken sync like any edit on the next round')
    .argument('[ids...]', 'the conflicts (finops sync conflicts)')
    .addOption(dataDirOption())
    .addOption(teamOption(false))
    .addOption(new Option('--take <side>', 'local or remote').choices(['local', 'remote']).makeOptionMandatory())
    .addOption(new Option('--open', 'every open conflict of the team'))
    .action(async (ids: string[], _opts, sub: Command) => {
      const opts = common<{ take: 'local' | 'remote'; open?: boolean }>(sub);
      if (opts.open ? ids.length > 0 : ids.length === 0) throw new UsageError('name the conflicts, or take --open ones');
      await withDb(opts, (db) => {
        const teamId = findTeam(db, opts.team).id;
        const chosen = opts.open ? listConflicts(db, teamId, { all: false }).map((c) => c.id) : [...new Set(ids)];
        // Each in its own write, as the Sync screen's bulk choice: one that cannot be taken leaves the others taken.
        let failed = 0;
        for (const id of chosen) {
          try {
            process.stdout.write(`${conflictLine(resolveConflict(db, teamId, id, opts.take))}\n`);
          } catch (err) {
            if (!(err instanceof NotFound || err instanceof Conflict)) throw err;
            failed += 1;
            process.stderr.write(`${id}: ${err.message}\n`);
          }
        }
        if (failed) process.exitCode = 1;
      });
    });
  return cmd;
}
