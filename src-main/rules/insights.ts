import type { RuleInput } from '../../src-shared/contract/rules';
import { AUTO_APPLY_AT, CategoryModel, ruleCandidates } from '../../src-shared/domain/category-suggest';
import { detectRecurring } from '../../src-shared/domain/recurring';
import { evaluate, matches, orderRules, type RuleDef, ruleProblems } from '../../src-shared/domain/rules';
import type { Db } from '../store/db';
import { NotFound } from '../store/errors';
import { factsInWindow, factsOf, labelledHistory } from '../store/rules/facts';
import { listRecurringSeries, recurringHistory, saveRecurringSeries } from '../store/rules/recurring';
import { listRules, ruleDefs, toRuleDef } from '../store/rules/rules';
import { dryRunRules, MAX_SCOPE, type RuleRun } from './apply';

/**
 * What the rules area learns and checks from history: the linter, rule suggestions, category suggestions, "apply to
 * similar", and recurring series. Decisions 0130–0132.
 */

const DAY_MS = 86_400_000;
const isoDay = (d: Date) => d.toISOString().slice(0, 10);

export interface LintReport {
  problems: { ruleId: string; message: string }[];
  neverMatched: { ruleId: string; name: string }[];
  shadowed: { ruleId: string; name: string; by: string[]; transactions: number }[];
  conflicts: { ruleIds: [string, string]; field: string; transactions: number; example: string }[];
  window: { start: string; end: string };
}

/**
 * Over the last 12 months: rules with problems (an invalid regular expression, an empty group), rules that never
 * matched, rules shadowed (every field they set on every transaction they match is set again by a later rule), and
 * pairs of rules that set the same field to different values on the same transactions.
 */
export function lintRules(db: Db, teamId: string, now = new Date()): LintReport {
  const window = { start: isoDay(new Date(now.getTime() - 365 * DAY_MS)), end: isoDay(now) };
  const rules = listRules(db, teamId);
  const problems = rules.flatMap((r) => ruleProblems(toRuleDef(r)).map((message) => ({ ruleId: r.id, message })));
  const ordered = orderRules(rules.map(toRuleDef));
  const rows = factsInWindow(db, teamId, window, MAX_SCOPE);
  const matchCount = new Map<string, number>(ordered.map((r) => [r.id, 0]));
  const notShadowed = new Set<string>();
  const shadowers = new Map<string, Set<string>>();
  const conflicts = new Map<string, { ruleIds: [string, string]; field: string; transactions: number; example: string }>();
  for (const { facts } of rows) {
    const hits = ordered.filter((r) => matches(r.conditions, facts));
    // Per field, the value each matching rule would set, in run order.
    const setters = new Map<string, { ruleId: string; value: string }[]>();
    for (const r of hits) {
      matchCount.set(r.id, (matchCount.get(r.id) ?? 0) + 1);
      const e = evaluate([r], {
        ...facts,
        categorySlug: null,
        note: null,
        tagIds: [],
        internal: false,
        recurring: false,
        frequency: null,
        status: 'posted',
      });
      for (const c of e.changes) {
        const list = setters.get(c.field) ?? [];
        list.push({ ruleId: r.id, value: JSON.stringify(c.after) });
        setters.set(c.field, list);
      }
    }
    for (const r of hits) {
      let allOverridden = true;
      for (const [, list] of setters) {
        const mine = list.findIndex((s) => s.ruleId === r.id);
        if (mine < 0) continue;
        const later = list.slice(mine + 1);
        if (later.length === 0) allOverridden = false;
        else for (const l of later) (shadowers.get(r.id) ?? shadowers.set(r.id, new Set()).get(r.id)!).add(l.ruleId);
      }
      if (!allOverridden) notShadowed.add(r.id);
    }
    for (const [field, list] of setters) {
      for (let i = 0; i < list.length; i++) {
        for (let j = i + 1; j < list.length; j++) {
          if (list[i]!.value === list[j]!.value) continue;
          const key = `${list[i]!.ruleId} ${list[j]!.ruleId} ${field}`;
          const c = conflicts.get(key) ?? {
            ruleIds: [list[i]!.ruleId, list[j]!.ruleId] as [string, string],
            field,
            transactions: 0,
            example: facts.id,
          };
          c.transactions++;
          conflicts.set(key, c);
        }
      }
    }
  }
  return {
    problems,
    neverMatched: ordered.filter((r) => (matchCount.get(r.id) ?? 0) === 0).map((r) => ({ ruleId: r.id, name: r.name })),
    shadowed: ordered
      .filter((r) => (matchCount.get(r.id) ?? 0) > 0 && !notShadowed.has(r.id))
      .map((r) => ({
        ruleId: r.id,
        name: r.name,
        by: [...(shadowers.get(r.id) ?? [])],
        transactions: matchCount.get(r.id) ?? 0,
      })),
    conflicts: [...conflicts.values()],
    window,
  };
}

/** A rule for one payee and category: counterparty (or name) is exactly the payee, and the line has no category yet. */
function payeeRule(counterparty: string, categorySlug: string): RuleInput {
  return {
    name: `${counterparty} → ${categorySlug}`,
    stage: 'default',
    enabled: true,
    conditions: {
      all: [
        { field: 'counterparty', op: 'is', value: counterparty },
        { field: 'category', op: 'empty' },
      ],
    },
    actions: [{ type: 'set_category', categorySlug }],
    applyOn: ['import', 'create'],
  };
}

/** Rules worth offering (3 of a payee's last 5 categorised lines agree), unless an existing rule already covers them. */
export function ruleSuggestions(db: Db, teamId: string, now = new Date()) {
  const since = isoDay(new Date(now.getTime() - 365 * DAY_MS));
  const history = labelledHistory(db, teamId, { start: since });
  const existing = ruleDefs(db, teamId);
  const latestByPayee = new Map<string, (typeof history)[number]>();
  for (const h of history) {
    const key = (h.counterparty || h.name).toLocaleLowerCase('en');
    const cur = latestByPayee.get(key);
    if (!cur || cur.date < h.date) latestByPayee.set(key, h);
  }
  const uncategorized = factsInWindow(db, teamId, { start: since, onlyUncategorized: true }, MAX_SCOPE);
  return ruleCandidates(history)
    .map((c) => {
      const rule = payeeRule(c.counterparty, c.categorySlug);
      const def: RuleDef = {
        id: 'suggested',
        name: rule.name,
        stage: 'default',
        enabled: true,
        conditions: rule.conditions,
        actions: rule.actions,
      };
      const sample = latestByPayee.get(c.counterparty.toLocaleLowerCase('en'));
      const covered =
        sample &&
        factsOf(db, teamId, [sample.id]).some(
          (f) => evaluate(existing, { ...f.facts, categorySlug: null }).outcome.categorySlug === c.categorySlug,
        );
      const wouldCategorize = uncategorized.filter((u) => matches(def.conditions, u.facts)).length;
      return covered
        ? null
        : {
            name: rule.name,
            counterparty: c.counterparty,
            categorySlug: c.categorySlug,
            agree: c.agree,
            of: c.of,
            uncategorized: wouldCategorize,
            rule,
          };
    })
    .filter((x): x is NonNullable<typeof x> => x !== null);
}

/** A suggested category for each transaction, or an abstention, from the team's other categorised history. */
export function categorySuggestions(db: Db, teamId: string, ids: readonly string[]) {
  const targets = factsOf(db, teamId, ids);
  const exclude = new Set(ids);
  const model = new CategoryModel(labelledHistory(db, teamId).filter((h) => !exclude.has(h.id)));
  return ids.flatMap((id) => {
    const t = targets.find((x) => x.facts.id === id);
    if (!t) return [];
    const s = model.suggest({
      name: t.facts.name,
      description: t.facts.description,
      counterparty: t.facts.counterparty,
      amountMinor: t.facts.amountMinor,
    });
    return [
      {
        transactionId: id,
        categorySlug: s?.categorySlug ?? null,
        confidence: s?.confidence ?? 0,
        evidence: s?.evidence ?? null,
        autoApply: (s?.confidence ?? 0) >= AUTO_APPLY_AT,
      },
    ];
  });
}

/**
 * After a person categorised `transactionId`: the rule that would give the same category to the uncategorised lines
 * of the same payee, and its dry run over them ("apply to 12 similar").
 */
export function similarTo(db: Db, teamId: string, transactionId: string): { rule: RuleInput | null; preview: RuleRun } {
  const [t] = factsOf(db, teamId, [transactionId]);
  if (!t) throw new NotFound('transaction', transactionId);
  const empty: RuleRun = { dryRun: true, scanned: 0, changed: 0, transactions: [], failures: [], truncated: false };
  if (!t.facts.categorySlug) return { rule: null, preview: empty };
  const payee = t.facts.counterparty || t.facts.name;
  const rule = payeeRule(payee, t.facts.categorySlug);
  if (!t.facts.counterparty)
    rule.conditions = {
      all: [
        { field: 'name', op: 'is', value: payee },
        { field: 'category', op: 'empty' },
      ],
    };
  const def: RuleDef = {
    id: 'similar',
    name: rule.name,
    stage: 'default',
    enabled: true,
    conditions: rule.conditions,
    actions: rule.actions,
  };
  return { rule, preview: dryRunRules(db, teamId, { onlyUncategorized: true }, [def]) };
}

/** Detects recurring series over the last two years and stores them; returns the series and the lines marked. */
export function detectAndSaveRecurring(db: Db, teamId: string, now = new Date()) {
  const asOf = isoDay(now);
  const since = isoDay(new Date(now.getTime() - 2 * 366 * DAY_MS));
  const marked = saveRecurringSeries(db, teamId, detectRecurring(recurringHistory(db, teamId, since), asOf));
  return { data: listRecurringSeries(db, teamId), marked };
}
