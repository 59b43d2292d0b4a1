import fs from 'node:fs';
import { Command, Option } from 'commander';
import { RuleInput } from '../../../src-shared/contract/rules';
import { dryRunRules, runRules } from '../../rules/apply';
import { detectAndSaveRecurring, lintRules, ruleSuggestions } from '../../rules/insights';
import type { Db } from '../../store/db';
import { listRecurringSeries } from '../../store/rules/recurring';
import { createRule, getRule, listRules, toRuleDef } from '../../store/rules/rules';
import { findTeamByName, getTeam } from '../../store/teams/teams';
import { dataDirOption, teamOption, UsageError, withDatabase } from '../program';

/** `finops rules …` and `finops recurring …`: the rules area from the command line (JSON on stdout). */

function teamId(db: Db, team: string): string {
  const t = findTeamByName(db, team);
  if (t) return t.id;
  return getTeam(db, team).id;
}

function print(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

function scopeOptions(cmd: Command): Command {
  return cmd
    .addOption(new Option('--start <day>', 'first booking day (YYYY-MM-DD)'))
    .addOption(new Option('--end <day>', 'last booking day (YYYY-MM-DD)'))
    .addOption(new Option('--only-uncategorized', 'only transactions without a category'));
}

export function rulesCommand(): Command {
  const rules = new Command('rules');
  rules
    .command('list')
    .description("the team's rules in run order")
    .addOption(dataDirOption())
    .addOption(teamOption())
    .action((opts: { dataDir?: string; team: string }) =>
      withDatabase(opts, (db) => print(listRules(db, teamId(db, opts.team)))),
    );
  rules
    .command('add')
    .description('add a rule from a JSON file (the POST /v1/rules body); prints the rule')
    .argument('<file>')
    .addOption(dataDirOption())
    .addOption(teamOption())
    .action((file: string, opts: { dataDir?: string; team: string }) => {
      let json: unknown;
      try {
        json = JSON.parse(fs.readFileSync(file, 'utf8'));
      } catch (err) {
        throw new UsageError(`${file}: ${(err as Error).message}`);
      }
      const parsed = RuleInput.safeParse(json);
      if (!parsed.success) {
        throw new UsageError(
          `${file}: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'rule'}: ${i.message}`).join('; ')}`,
        );
      }
      withDatabase(opts, (db) => print(createRule(db, teamId(db, opts.team), parsed.data)));
    });
  for (const [name, description, fn] of [
    ['dry-run', 'what a rule would change (without writing)', dryRunRules],
    ['run', 'run a rule on history and print what changed', runRules],
  ] as const) {
    scopeOptions(
      rules.command(name).description(description).argument('<rule-id>').addOption(dataDirOption()).addOption(teamOption()),
    ).action(
      (ruleId: string, opts: { dataDir?: string; team: string; start?: string; end?: string; onlyUncategorized?: boolean }) =>
        withDatabase(opts, (db) => {
          const team = teamId(db, opts.team);
          const rule = { ...toRuleDef(getRule(db, team, ruleId)), enabled: true };
          print(fn(db, team, { start: opts.start, end: opts.end, onlyUncategorized: opts.onlyUncategorized }, [rule]));
        }),
    );
  }
  rules
    .command('lint')
    .description('invalid, shadowed, never-matching and conflicting rules (last 12 months)')
    .addOption(dataDirOption())
    .addOption(teamOption())
    .action((opts: { dataDir?: string; team: string }) =>
      withDatabase(opts, (db) => print(lintRules(db, teamId(db, opts.team)))),
    );
  rules
    .command('suggestions')
    .description('rules worth creating, learned from how payees were categorised')
    .addOption(dataDirOption())
    .addOption(teamOption())
    .action((opts: { dataDir?: string; team: string }) =>
      withDatabase(opts, (db) => print(ruleSuggestions(db, teamId(db, opts.team)))),
    );
  return rules;
}

export function recurringCommand(): Command {
  const recurring = new Command('recurring');
  recurring
    .command('detect')
    .description('detect series now, mark their transactions, print a summary')
    .addOption(dataDirOption())
    .addOption(teamOption())
    .action((opts: { dataDir?: string; team: string }) =>
      withDatabase(opts, (db) => {
        const { data, marked } = detectAndSaveRecurring(db, teamId(db, opts.team));
        process.stdout.write(
          `${data.filter((s) => s.active).length} active series, ${data.length} in all; ${marked} transactions marked\n`,
        );
      }),
    );
  recurring
    .command('list')
    .description('the stored series')
    .addOption(dataDirOption())
    .addOption(teamOption())
    .action((opts: { dataDir?: string; team: string }) =>
      withDatabase(opts, (db) => print(listRecurringSeries(db, teamId(db, opts.team)))),
    );
  return recurring;
}
