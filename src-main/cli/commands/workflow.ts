import fs from 'node:fs';
import { Command, InvalidArgumentError, Option } from 'commander';
import { RUN_STATUSES, type RunStatus } from '../../../src-shared/contract/workflows';
import { commandWorkflowRunner } from '../../runtime/background';
import { openDataDir } from '../../runtime/data-dir';
import type { Db } from '../../store/db';
import { NotFound } from '../../store/errors';
import { ensureTeam } from '../../store/teams/teams';
import { CLI_PRINCIPAL, decideApproval } from '../../store/workflows/runs/approvals';
import { cancelRun } from '../../store/workflows/runs/cancel';
import { getRunDetail, listRuns } from '../../store/workflows/runs/reads';
import { getWorkflowSettings, setWorkflowSettings } from '../../store/workflows/settings';
import { getWebhookSecret, listWorkflows, rotateWebhookSecret } from '../../store/workflows/workflows';
import { InvalidDefinition, importWorkflow, promote, setActive, workflowDetail } from '../../workflows/catalog';
import { StartRefused, startWorkflowRun } from '../../workflows/dispatch';
import type { WorkflowRunner } from '../../workflows/runner';
import { dataDirOption, findTeam, parsePositiveInt, resolveDataDir, teamOption, UsageError } from '../program';

/**
 * `finops workflow …`: definitions and runs from the command line, on the data dir's database directly (safe
 * beside a running server). Commands that move a run (start, approve, reject) then advance it in this process until
 * it waits or finishes, unless a running server has already taken it (runs are claimed through the database, so a
 * step never runs twice). Output is tab-separated, one record a line; `import` prints only the workflow id.
 */

interface Common {
  dataDir?: string;
  team: string;
}

async function withDb<T>(opts: { dataDir?: string }, run: (db: Db) => Promise<T> | T): Promise<T> {
  const db = openDataDir(resolveDataDir(opts));
  try {
    return await run(db);
  } finally {
    db.close();
  }
}

function readJsonFile(file: string): unknown {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new UsageError(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new Error(`${file} is not JSON: ${(err as Error).message}`);
  }
}

function parseJsonObject(value: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new InvalidArgumentError('must be a JSON object, e.g. \'{"invoiceId":"…"}\'');
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new InvalidArgumentError('must be a JSON object');
  return parsed as Record<string, unknown>;
}

function parseStatus(value: string, previous: RunStatus[] = []): RunStatus[] {
  if (!(RUN_STATUSES as readonly string[]).includes(value)) throw new InvalidArgumentError(`one of ${RUN_STATUSES.join(', ')}`);
  return [...previous, value as RunStatus];
}

function out(line: string): void {
  process.stdout.write(`${line}\n`);
}

function runner(db: Db): WorkflowRunner {
  return commandWorkflowRunner(db);
}

/** Advances the run here unless another process holds it; prints `<executionId>\t<status>`. */
async function advance(db: Db, teamId: string, runId: string, run: boolean): Promise<void> {
  if (run) await runner(db).driveOne(teamId, runId);
  const detail = getRunDetail(db, teamId, runId);
  out(`${detail.executionId}\t${detail.status}${detail.errorMessage ? `\t${detail.errorMessage}` : ''}`);
}

export function workflowCommand(): Command {
  const cmd = new Command('workflow');
  const common = (c: Command) => c.addOption(dataDirOption()).addOption(teamOption());

  common(cmd.command('import'))
    .description('store a workflow definition (JSON file) as a new version; prints only the workflow id')
    .argument('<file>', 'the definition (format: docs/workflow-schema.json)')
    .option('--promote', 'promote the new version at once (only the promoted version runs)')
    .option('--workflow <id>', 'add the version to this workflow (default: the file’s id, else a new workflow)')
    .action((file: string, opts: Common & { promote?: boolean; workflow?: string }) =>
      withDb(opts, (db) => {
        const team = ensureTeam(db, opts.team);
        try {
          const imported = importWorkflow(db, team.id, readJsonFile(file), {
            promote: opts.promote,
            workflowId: opts.workflow,
            author: CLI_PRINCIPAL,
          });
          out(imported.workflowId);
        } catch (err) {
          if (err instanceof InvalidDefinition) {
            throw new Error(
              `${file} is not a valid workflow:\n${err.problems.map((p) => `  - ${p.at ? `${p.at}: ` : ''}${p.message}`).join('\n')}`,
            );
          }
          throw err;
        }
      }),
    );

  common(cmd.command('promote'))
    .description('make a version the one that runs (default: the latest)')
    .argument('<workflow-id>')
    .addOption(new Option('--version <n>', 'version number').argParser(parsePositiveInt))
    .action((id: string, opts: Common & { version?: number }) =>
      withDb(opts, (db) => {
        const team = findTeam(db, opts.team);
        const version = opts.version ?? workflowDetail(db, team.id, id).latestVersion;
        promote(db, team.id, id, version);
        out(`${id}\tpromoted v${version}`);
      }),
    );

  common(cmd.command('list'))
    .description("list the team's workflows: id, name, active, API execution, promoted version, triggers")
    .action((opts: Common) =>
      withDb(opts, (db) => {
        const team = findTeam(db, opts.team);
        let cursor: string | undefined;
        do {
          const page = listWorkflows(db, team.id, { pageSize: 100, cursor });
          for (const w of page.data) {
            out(
              [
                w.id,
                w.name,
                w.active ? 'active' : 'inactive',
                w.apiExecution ? 'api' : 'no-api',
                w.promotedVersion ? `v${w.promotedVersion}` : 'draft',
                w.triggers.map((t) => t.type).join(','),
              ].join('\t'),
            );
          }
          cursor = page.meta.cursor ?? undefined;
        } while (cursor);
      }),
    );

  for (const [name, active] of [
    ['activate', true],
    ['deactivate', false],
  ] as const) {
    common(cmd.command(name))
      .description(active ? 'turn a workflow on (its triggers start runs)' : 'turn a workflow off (runs in progress go on)')
      .argument('<workflow-id>')
      .action((id: string, opts: Common) =>
        withDb(opts, (db) => {
          setActive(db, findTeam(db, opts.team).id, id, active);
          out(`${id}\t${active ? 'active' : 'inactive'}`);
        }),
      );
  }

  common(cmd.command('start'))
    .description('start a run (API execution need not be enabled) and advance it; prints <executionId> and its status')
    .argument('<workflow-id>')
    .option('--trigger-type <type>', 'a trigger the workflow declares', 'manual')
    .addOption(new Option('--data <json>', 'trigger data, a JSON object').argParser(parseJsonObject))
    .option('--idempotency-key <key>', 'a second start with the same key starts nothing more')
    .option('--no-run', 'only enqueue it (a running server, or a later command, runs it)')
    .action(
      async (
        id: string,
        opts: Common & { triggerType: string; data?: Record<string, unknown>; idempotencyKey?: string; run: boolean },
      ) =>
        withDb(opts, async (db) => {
          const team = findTeam(db, opts.team);
          let started: { id: string };
          try {
            started = startWorkflowRun(db, team.id, id, {
              triggerType: opts.triggerType,
              triggerData: opts.data ?? {},
              idempotencyKey: opts.idempotencyKey,
              source: 'cli',
              requireApiExecution: false,
              startedBy: CLI_PRINCIPAL,
            });
          } catch (err) {
            if (err instanceof StartRefused) throw new Error(err.message);
            throw err;
          }
          await advance(db, team.id, started.id, opts.run);
        }),
    );

  common(cmd.command('runs'))
    .description('list runs, newest first: executionId, run reference, workflow, status, trigger, created, current node, error')
    .option('--workflow <id>', 'only this workflow’s runs')
    .addOption(new Option('--status <status>', 'only runs in this status (repeatable)').argParser(parseStatus))
    .addOption(new Option('--limit <n>', 'at most this many').argParser(parsePositiveInt).default(50))
    .action((opts: Common & { workflow?: string; status?: RunStatus[]; limit: number }) =>
      withDb(opts, (db) => {
        const team = findTeam(db, opts.team);
        let left = opts.limit;
        let cursor: string | undefined;
        do {
          const page = listRuns(db, team.id, {
            pageSize: Math.min(100, left),
            cursor,
            workflowId: opts.workflow,
            statuses: opts.status,
          });
          for (const r of page.data) {
            out(
              [
                r.executionId,
                r.runId,
                r.workflowName,
                r.status,
                r.triggerType,
                r.createdAt,
                r.currentNodeId ?? '-',
                r.errorMessage ?? '',
              ].join('\t'),
            );
          }
          left -= page.data.length;
          cursor = page.meta.cursor ?? undefined;
        } while (cursor && left > 0);
      }),
    );

  for (const [name, decision] of [
    ['approve', 'approved'],
    ['reject', 'rejected'],
  ] as const) {
    common(cmd.command(name))
      .description(`${name} what a waiting run waits for, then advance it; prints <executionId> and its status`)
      .argument('<execution-id>')
      .option('--comment <text>', 'kept with the decision')
      .option('--no-run', 'only record the decision (a running server, or a later command, runs it)')
      .action(async (runId: string, opts: Common & { comment?: string; run: boolean }) =>
        withDb(opts, async (db) => {
          const team = findTeam(db, opts.team);
          // The operator at the data dir is one principal: a run it started is approved by someone else (0179).
          decideApproval(db, team.id, runId, decision, { principal: CLI_PRINCIPAL, administers: true }, opts.comment);
          await advance(db, team.id, runId, opts.run);
        }),
      );
  }

  common(cmd.command('cancel'))
    .description('cancel a run that has not finished (a step in flight completes first)')
    .argument('<execution-id>')
    .action((runId: string, opts: Common) =>
      withDb(opts, (db) => {
        const team = findTeam(db, opts.team);
        const now = cancelRun(db, team.id, runId);
        out(`${runId}\t${now ? 'canceled' : 'cancel requested'}`);
      }),
    );

  common(cmd.command('show'))
    .description('print a workflow (versions, promoted definition) or, given an execution id, a run, as JSON')
    .argument('<id>', 'workflow id or execution id')
    .action((id: string, opts: Common) =>
      withDb(opts, (db) => {
        const team = findTeam(db, opts.team);
        try {
          out(JSON.stringify(workflowDetail(db, team.id, id), null, 2));
        } catch (err) {
          if (!(err instanceof NotFound)) throw err;
          out(JSON.stringify(getRunDetail(db, team.id, id), null, 2));
        }
      }),
    );

  common(cmd.command('http-hosts'))
    .description(
      'show or change the hosts HTTP nodes of the team’s runs may call (kept with the team: the server and these commands read the same)',
    )
    .option('--set <hosts>', 'replace the list: comma-separated host or host:port entries ("" turns HTTP nodes off)')
    .option('--add <host>', 'add a host (repeatable)', (v: string, prev: string[] = []) => [...prev, v])
    .option('--remove <host>', 'remove a host (repeatable)', (v: string, prev: string[] = []) => [...prev, v])
    .action((opts: Common & { set?: string; add?: string[]; remove?: string[] }) =>
      withDb(opts, (db) => {
        const team = findTeam(db, opts.team);
        let hosts = getWorkflowSettings(db, team.id).httpHosts;
        if (opts.set !== undefined || opts.add || opts.remove) {
          if (opts.set !== undefined)
            hosts = opts.set
              .split(',')
              .map((h) => h.trim())
              .filter(Boolean);
          hosts = [...hosts, ...(opts.add ?? [])].filter((h) => !(opts.remove ?? []).includes(h));
          hosts = setWorkflowSettings(db, team.id, { httpHosts: hosts }).httpHosts;
        }
        for (const h of hosts) out(h);
      }),
    );

  common(cmd.command('webhook-secret'))
    .description('print the secret that signs calls to /hooks/workflows/<id> (see docs/decisions/0104)')
    .argument('<workflow-id>')
    .option('--rotate', 'replace it with a new one first')
    .action((id: string, opts: Common & { rotate?: boolean }) =>
      withDb(opts, (db) => {
        const team = findTeam(db, opts.team);
        out(opts.rotate ? rotateWebhookSecret(db, team.id, id) : getWebhookSecret(db, team.id, id));
      }),
    );

  return cmd;
}
