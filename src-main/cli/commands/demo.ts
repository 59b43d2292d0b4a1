import { Command, InvalidArgumentError, Option } from 'commander';
import { parseDay } from '../../demo/calendar';
import { LedgerTooSmall } from '../../demo/ledger';
import { DEFAULT_SEED, formatSummary, planDemo } from '../../demo/seed';
import { importDemoWorkflows } from '../../demo/workflows';
import { writeDemo } from '../../demo/write';
import { deleteTeamData, teamHasData } from '../../store/demo/demo-data';
import { teamRemote } from '../../store/sync/remotes';
import { ensureTeam } from '../../store/teams/teams';
import { dataDirOption, parsePositiveInt, UsageError, withDatabase } from '../program';

export const DEFAULT_DEMO_TEAM = 'Demo Agency';
const PROGRESS_EVERY = 100_000;

function parseSeed(value: string): string {
  if (!value.trim()) throw new InvalidArgumentError('must not be empty');
  return value;
}

function parseAsOf(value: string): string {
  try {
    parseDay(value);
  } catch {
    throw new InvalidArgumentError('must be a date YYYY-MM-DD');
  }
  return value;
}

/**
 * `finops demo`: seeds a team with the deterministic demo data set (src-main/demo/, docs/decisions/0003-demo-data.md).
 * Progress goes to stderr, a one-line summary to stdout.
 */
export function demoCommand(): Command {
  return new Command('demo')
    .addOption(dataDirOption())
    .addOption(new Option('--team <team>', 'team name or id (created if absent)').default(DEFAULT_DEMO_TEAM))
    .addOption(
      new Option('--transactions <n>', 'exact number of transactions (default: the natural ~3,000)').argParser(parsePositiveInt),
    )
    .addOption(new Option('--seed <seed>', 'seed: the same seed gives the same data').argParser(parseSeed).default(DEFAULT_SEED))
    .addOption(new Option('--as-of <date>', 'last day of the data, YYYY-MM-DD (default: today, UTC)').argParser(parseAsOf))
    .addOption(new Option('--replace', "delete the team's existing data first"))
    .action((opts: { dataDir?: string; team: string; transactions?: number; seed: string; asOf?: string; replace?: boolean }) => {
      let data: ReturnType<typeof planDemo>;
      try {
        data = planDemo({ seed: opts.seed, asOf: opts.asOf, transactions: opts.transactions });
      } catch (err) {
        if (err instanceof LedgerTooSmall) throw new UsageError(err.message);
        throw err;
      }
      withDatabase(opts, (db) => {
        const team = ensureTeam(db, opts.team, { baseCurrency: 'EUR', countryCode: 'DE' });
        data.baseCurrency = team.baseCurrency;
        // Demo data is no team's real books: never sent to a remote, and --replace must never push a wipe there.
        const remote = teamRemote(db, team.id);
        if (remote) {
          throw new Error(
            `team "${team.name}" syncs with ${remote.baseUrl}: demo data would be sent there${opts.replace ? ", and --replace would delete the remote's records" : ''}. Use another team, or disconnect it first (finops sync disconnect)`,
          );
        }
        if (teamHasData(db, team.id)) {
          if (!opts.replace) {
            throw new Error(`team "${team.name}" already has data; pass --replace to delete it and seed the demo data again`);
          }
          const deleted = deleteTeamData(db, team.id);
          process.stderr.write(`demo: deleted ${deleted} records of team "${team.name}"\n`);
        }
        const started = performance.now();
        const total = data.ledger.total;
        let next = PROGRESS_EVERY;
        const summary = writeDemo(db, team.id, data, {
          onProgress: (written) => {
            if (total < PROGRESS_EVERY || written < next) return;
            next += PROGRESS_EVERY;
            process.stderr.write(
              `demo: ${written}/${total} transactions (${((performance.now() - started) / 1000).toFixed(1)} s)\n`,
            );
          },
        });
        const workflows = importDemoWorkflows(db, team.id);
        process.stdout.write(`${formatSummary(team.name, { ...summary, workflows }, data.seed, data.window.asOf)}\n`);
      });
    });
}
