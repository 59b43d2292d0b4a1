import { AUTO_APPLY_AT, CategoryModel } from '../../src-shared/domain/category-suggest';
import { type Evaluation, evaluate, type FieldChange, type RuleDef } from '../../src-shared/domain/rules';
import type { Db } from '../store/db';
import { type FactsRow, factsInWindow, factsOf, labelledHistory } from '../store/rules/facts';
import { ruleDefs } from '../store/rules/rules';
import { recordRuleRun } from '../store/rules/run-results';
import { applyTransactionChanges, type TransactionChange } from '../store/transactions/update';
import { write } from '../store/write';

/**
 * Running rules: the same evaluation for a dry run and for the run it previews (src-shared/domain/rules.ts
 * `evaluate`), so what a preview lists is exactly what a run changes. A run writes each transaction's changes through
 * the ledger with source 'rule' and the id of the rule that set each field (per-field provenance), leaves fields a
 * person set, and records match counts and failures. Everything of one run is one SQLite transaction.
 */

export interface RunScope {
  ids?: readonly string[];
  start?: string;
  end?: string;
  onlyUncategorized?: boolean;
}

export interface RuleRun {
  dryRun: boolean;
  scanned: number;
  changed: number;
  transactions: { id: string; name: string; date: string; changes: FieldChange[] }[];
  failures: { ruleId: string; transactionId: string; message: string }[];
  truncated: boolean;
}

/** History windows of a run on demand hold at most this many transactions (ask for a narrower window). */
export const MAX_SCOPE = 100_000;

function evaluations(rules: readonly RuleDef[], rows: readonly FactsRow[]): { row: FactsRow; e: Evaluation }[] {
  return rows.map((row) => ({ row, e: evaluate(rules, row.facts, row.locked) }));
}

/** Groups a transaction's field changes by the rule that set them, as ledger changes. */
function changesByRule(e: Evaluation): Map<string, TransactionChange> {
  const byRule = new Map<string, TransactionChange>();
  const o = e.outcome;
  for (const c of e.changes) {
    const change = byRule.get(c.ruleId) ?? {};
    switch (c.field) {
      case 'category':
        change.categorySlug = o.categorySlug;
        break;
      case 'tags':
        change.addTagIds = o.addTagIds;
        break;
      case 'note':
        change.note = o.note;
        break;
      case 'counterpartyName':
        change.counterpartyName = o.counterpartyName;
        break;
      case 'internal':
        change.internal = o.internal;
        break;
      case 'recurring':
        change.recurring = o.recurring;
        break;
      case 'frequency':
        change.frequency = o.frequency;
        break;
      case 'status':
        change.status = o.status;
        break;
      case 'splits':
        change.splits = o.splits;
        break;
    }
    byRule.set(c.ruleId, change);
  }
  return byRule;
}

function run(
  db: Db,
  teamId: string,
  rules: readonly RuleDef[],
  rows: readonly FactsRow[],
  dryRun: boolean,
  limit: number,
): RuleRun {
  const results = evaluations(rules, rows);
  const changed = results.filter((r) => r.e.changes.length > 0);
  const failures = results.flatMap((r) => r.e.failures.map((f) => ({ ...f, transactionId: r.row.facts.id })));
  if (!dryRun) {
    write(
      db,
      teamId,
      () => {
        // One ledger write for every change of the run: the roll-up and balances are brought up to date once.
        applyTransactionChanges(
          db,
          teamId,
          changed.flatMap(({ row, e }) =>
            [...changesByRule(e)].map(([ruleId, change]) => ({
              id: row.facts.id,
              change,
              source: { source: 'rule' as const, sourceId: ruleId, respectLocks: true },
            })),
          ),
        );
        const matches = new Map<string, number>();
        for (const { e } of results) for (const id of e.matched) matches.set(id, (matches.get(id) ?? 0) + 1);
        recordRuleRun(db, teamId, matches, failures);
      },
      { origin: 'rule' },
    );
  }
  return {
    dryRun,
    scanned: rows.length,
    changed: changed.length,
    transactions: changed
      .slice(0, limit)
      .map(({ row, e }) => ({ id: row.facts.id, name: row.facts.name, date: row.facts.date, changes: e.changes })),
    failures,
    truncated: changed.length > limit,
  };
}

function scopeRows(db: Db, teamId: string, scope: RunScope): FactsRow[] {
  if (scope.ids) {
    const rows = factsOf(db, teamId, scope.ids);
    return scope.onlyUncategorized ? rows.filter((r) => r.facts.categorySlug === null) : rows;
  }
  return factsInWindow(db, teamId, scope, MAX_SCOPE);
}

/** What the given rules (or every enabled rule) would change in the scope, without writing anything. */
export function dryRunRules(db: Db, teamId: string, scope: RunScope, rules?: readonly RuleDef[], limit = 500): RuleRun {
  return run(db, teamId, rules ?? ruleDefs(db, teamId), scopeRows(db, teamId, scope), true, limit);
}

/** Runs the given rules (or every enabled rule) on the scope and reports what changed. */
export function runRules(db: Db, teamId: string, scope: RunScope, rules?: readonly RuleDef[], limit = 500): RuleRun {
  return run(db, teamId, rules ?? ruleDefs(db, teamId), scopeRows(db, teamId, scope), false, limit);
}

/**
 * The rules that run by themselves, on transactions just created by an import or by hand; then, for an import, the
 * category suggestions at or above the auto-apply threshold for what is still uncategorised. Called inside the
 * creating write, so a failure leaves nothing half-applied.
 */
export function applyRules(
  db: Db,
  teamId: string,
  transactionIds: readonly string[],
  options: { trigger: 'import' | 'create'; autoCategorize?: boolean },
): RuleRun {
  if (transactionIds.length === 0)
    return { dryRun: false, scanned: 0, changed: 0, transactions: [], failures: [], truncated: false };
  return write(db, teamId, () => {
    const result = run(db, teamId, ruleDefs(db, teamId, options.trigger), factsOf(db, teamId, transactionIds), false, 500);
    if (options.autoCategorize ?? options.trigger === 'import') autoCategorize(db, teamId, transactionIds);
    return result;
  });
}

/** Applies confident category suggestions (≥ AUTO_APPLY_AT) to the uncategorised ones among `ids`. */
export function autoCategorize(db: Db, teamId: string, ids: readonly string[]): number {
  const targets = factsOf(db, teamId, ids).filter((r) => r.facts.categorySlug === null && !r.locked.has('category'));
  if (targets.length === 0) return 0;
  const exclude = new Set(ids);
  const model = new CategoryModel(labelledHistory(db, teamId).filter((h) => !exclude.has(h.id)));
  const changes = targets.flatMap((t) => {
    const s = model.suggest({
      name: t.facts.name,
      description: t.facts.description,
      counterparty: t.facts.counterparty,
      amountMinor: t.facts.amountMinor,
    });
    return s && s.confidence >= AUTO_APPLY_AT
      ? [
          {
            id: t.facts.id,
            change: { categorySlug: s.categorySlug },
            source: { source: 'rule' as const, sourceId: 'suggestion', respectLocks: true },
          },
        ]
      : [];
  });
  if (changes.length > 0) applyTransactionChanges(db, teamId, changes);
  return changes.length;
}
