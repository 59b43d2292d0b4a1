import { Command, Option } from 'commander';
import { teamTransactionCount } from '../../store/bank-accounts/bank-accounts';
import {
  checkLedger,
  rebuildBalances,
  rebuildLedgerDaily,
  rebuildReviewStates,
  recomputeBaseAmounts,
} from '../../store/ledger/maintenance';
import { listTeams } from '../../store/teams/teams';
import { dataDirOption, findTeam, teamOption, withDatabase } from '../program';

/**
 * `finops ledger rebuild|check`: the ledger's derived data (running and account balances, base amounts, review
 * states, the daily roll-up) recomputed from the transactions, or compared with a recomputation
 * (src-main/store/ledger/maintenance.ts). Progress goes to stderr, one line per step with its time.
 */
export function ledgerCommand(): Command {
  const ledger = new Command('ledger');
  ledger
    .command('rebuild')
    .description("recompute a team's balances, base amounts, review states and daily roll-up from its transactions")
    .addOption(dataDirOption())
    .addOption(teamOption())
    .action((opts: { dataDir?: string; team: string }) => {
      withDatabase(opts, (db) => {
        const team = findTeam(db, opts.team);
        const count = teamTransactionCount(db, team.id);
        process.stderr.write(`ledger: team "${team.name}" has ${count} transactions\n`);
        const started = performance.now();
        const step = <T>(label: string, run: () => T): T => {
          const at = performance.now();
          const result = run();
          process.stderr.write(
            `ledger: ${label} done in ${((performance.now() - at) / 1000).toFixed(1)} s ` +
              `(${((performance.now() - started) / 1000).toFixed(1)} s in all)\n`,
          );
          return result;
        };
        step('running and account balances', () => rebuildBalances(db, team.id));
        const { missing } = step('base amounts', () => recomputeBaseAmounts(db, team.id));
        step('review states', () => rebuildReviewStates(db, team.id));
        step('daily roll-up', () => rebuildLedgerDaily(db, team.id));
        const problems = step('check', () => checkLedger(db, team.id));
        process.stdout.write(
          `rebuilt the ledger of team "${team.name}": ${count} transactions, ${missing} without an exchange rate` +
            `${problems.length ? `; ${problems.length} discrepancies remain` : '; consistent'}\n`,
        );
        if (problems.length) process.exitCode = 1;
      });
    });
  ledger
    .command('check')
    .description("compare a team's (or every team's) derived ledger data with a recomputation; exit 1 on a discrepancy")
    .addOption(dataDirOption())
    .addOption(new Option('--team <team>', 'team name or id (default: every team)'))
    .action((opts: { dataDir?: string; team?: string }) => {
      withDatabase(opts, (db) => {
        const teams = opts.team ? [findTeam(db, opts.team)] : listTeams(db);
        let bad = 0;
        for (const team of teams) {
          const count = teamTransactionCount(db, team.id);
          if (count >= 100_000) process.stderr.write(`ledger: checking team "${team.name}" (${count} transactions)…\n`);
          const problems = checkLedger(db, team.id);
          if (problems.length === 0) {
            process.stdout.write(`team "${team.name}": consistent (${count} transactions)\n`);
            continue;
          }
          bad++;
          process.stdout.write(`team "${team.name}": ${problems.length} discrepancies\n`);
          for (const p of problems) process.stdout.write(`  ${p.kind}: ${p.detail}\n`);
        }
        if (bad > 0) {
          process.stderr.write(`ledger: ${bad} team${bad === 1 ? '' : 's'} with discrepancies; run finops ledger rebuild\n`);
          process.exitCode = 1;
        }
      });
    });
  return ledger;
}
