import { Command, Option } from 'commander';
import { openDataDir } from '../../runtime/data-dir';
import type { Db } from '../../store/db';
import { listConflicts, type SyncConflict } from '../../store/sync/conflicts';
import { ensureRemote, type RemoteKind, removeRemote, teamRemote } from '../../store/sync/remotes';
import { syncStatus } from '../../store/sync/status';
import { resolveCredential } from '../../sync/credentials';
import { resolveConflict } from '../../sync/resolve';
import { runRound } from '../../sync/round';
import { dataDirOption, findTeam, progressBar, resolveDataDir, teamOption, UsageError } from '../program';

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
    .action(async (_opts, command: Command) => {
      const opts = common<{ remote?: string; token?: string; kind?: RemoteKind; json?: boolean }>(command);
      await withDb(opts, async (db) => {
        const team = findTeam(db, opts.team);
        const known = teamRemote(db, team.id);
        if (!opts.remote && !known) throw new UsageError('this team has no remote yet: pass --remote URL (ending in /v1)');
        const remote = ensureRemote(db, team.id, { baseUrl: opts.remote ?? known!.baseUrl, kind: opts.kind });
        const { credential } = await resolveCredential(remote.baseUrl, { token: opts.token, account: remote.credentialRef });
        const bar = progressBar('sync');
        const controller = new AbortController();
        const stop = () => controller.abort(new Error('interrupted'));
        process.once('SIGINT', stop);
        try {
          const result = await runRound({
            db,
            remote,
            credential,
            signal: controller.signal,
            onProgress: (p) => bar(p.done, p.total),
          });
          const s = result.summary;
          process.stdout.write(
            opts.json ? `${JSON.stringify(result)}\n` : `pulled ${s.pulled}, pushed ${s.pushed}, conflicts ${s.conflicts}\n`,
          );
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
    .command('disconnect')
    .description(
      "stop syncing the team with its remote: forgets the remote and what was agreed with it (the team's records stay)",
    )
    .addOption(dataDirOption())
    .addOption(teamOption(false))
    .action(async (_opts, sub: Command) => {
      const opts = common<object>(sub);
      await withDb(opts, (db) => {
        const team = findTeam(db, opts.team);
        const remote = teamRemote(db, team.id);
        if (!remote) throw new UsageError(`team "${team.name}" has no remote`);
        removeRemote(db, team.id, remote.id);
        process.stdout.write(`disconnected from ${remote.baseUrl}\n`);
      });
    });

  cmd
    .command('resolve')
    .description('take one side of a conflict; the value taken syncs like any edit on the next round')
    .argument('<id>', 'the conflict (finops sync conflicts)')
    .addOption(dataDirOption())
    .addOption(teamOption(false))
    .addOption(new Option('--take <side>', 'local or remote').choices(['local', 'remote']).makeOptionMandatory())
    .action(async (id: string, _opts, sub: Command) => {
      const opts = common<{ take: 'local' | 'remote' }>(sub);
      await withDb(opts, (db) => {
        const resolved = resolveConflict(db, findTeam(db, opts.team).id, id, opts.take);
        process.stdout.write(`${conflictLine(resolved)}\n`);
      });
    });
  return cmd;
}
