import type { Rule, RuleInput, RulePatch } from '../../../src-shared/contract/rules';
import {
  type Action,
  type Condition,
  orderRules,
  type RuleDef,
  ruleProblems,
  specificity,
} from '../../../src-shared/domain/rules';
import { UNCATEGORIZED } from '../../../src-shared/domain/transactions';
import type { Db } from '../db';
import { InvalidReference, NotFound } from '../errors';
import { resolveTagRefs } from '../tags/tags';
import { write } from '../write';

/**
 * Categorisation rules: their CRUD and checks. What they see of transactions is facts.ts, their run statistics and
 * failures run-results.ts, recurring series recurring.ts. Evaluation is pure (src-shared/domain/rules.ts); running
 * them is src-main/rules/apply.ts. Decisions 0130–0132.
 */

interface RuleRow {
  id: string;
  name: string;
  stage: RuleDef['stage'];
  enabled: number;
  conditions: string;
  actions: string;
  apply_on: string;
  match_count: number;
  last_matched_at: string | null;
  created_at: string;
  updated_at: string;
}

function toRule(r: RuleRow): Rule {
  const conditions = JSON.parse(r.conditions) as Condition;
  return {
    id: r.id,
    name: r.name,
    stage: r.stage,
    enabled: r.enabled === 1,
    conditions,
    actions: JSON.parse(r.actions) as Action[],
    applyOn: JSON.parse(r.apply_on) as string[],
    specificity: specificity(conditions),
    matchCount: r.match_count,
    lastMatchedAt: r.last_matched_at,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

export function toRuleDef(r: Rule): RuleDef {
  return {
    id: r.id,
    name: r.name,
    stage: r.stage,
    enabled: r.enabled,
    conditions: r.conditions as Condition,
    actions: r.actions as Action[],
  };
}

/** The team's rules in run order (disabled ones last, by name). */
export function listRules(db: Db, teamId: string): Rule[] {
  const rules = (db.prepare('SELECT * FROM rules WHERE team_id = ?').all(teamId) as RuleRow[]).map(toRule);
  const order = orderRules(rules.map(toRuleDef)).map((r) => r.id);
  const rank = new Map(order.map((id, i) => [id, i]));
  return rules.sort((a, b) => (rank.get(a.id) ?? 1e9) - (rank.get(b.id) ?? 1e9) || a.name.localeCompare(b.name));
}

export function getRule(db: Db, teamId: string, id: string): Rule {
  const row = db.prepare('SELECT * FROM rules WHERE team_id = ? AND id = ?').get(teamId, id) as RuleRow | undefined;
  if (!row) throw new NotFound('rule', id);
  return toRule(row);
}

/** Enabled rules that run by themselves on `trigger` (or all enabled ones). */
export function ruleDefs(db: Db, teamId: string, trigger?: 'import' | 'create'): RuleDef[] {
  return listRules(db, teamId)
    .filter((r) => r.enabled && (!trigger || r.applyOn.includes(trigger)))
    .map(toRuleDef);
}

function depth(c: Condition): number {
  if ('all' in c) return 1 + Math.max(0, ...c.all.map(depth));
  if ('any' in c) return 1 + Math.max(0, ...c.any.map(depth));
  if ('not' in c) return 1 + depth(c.not);
  return 1;
}

/** Checks a rule against the team's data: regular expressions, nesting, categories and tags it names. */
export function checkRule(db: Db, teamId: string, rule: { conditions: Condition; actions: Action[] }): void {
  const problems = ruleProblems(rule);
  if (problems.length > 0) throw new InvalidReference(problems[0]!.split(':')[0]!, problems.join('; '));
  if (depth(rule.conditions) > 8) throw new InvalidReference('conditions', 'Conditions nest at most 8 levels deep');
  const slugs = new Set(db.prepare('SELECT slug FROM transaction_categories WHERE team_id = ?').pluck().all(teamId) as string[]);
  const known = (slug: string | null | undefined, field: string) => {
    if (slug && slug !== UNCATEGORIZED && !slugs.has(slug))
      throw new InvalidReference(field, `Unknown category "${slug}" in ${field}`);
  };
  rule.actions.forEach((a, i) => {
    if (a.type === 'set_category') known(a.categorySlug, `actions.${i}.categorySlug`);
    if (a.type === 'split') {
      a.parts.forEach((p, j) => {
        known(p.categorySlug, `actions.${i}.parts.${j}.categorySlug`);
      });
      known(a.remainderCategorySlug, `actions.${i}.remainderCategorySlug`);
    }
    if (a.type === 'add_tags') resolveTagRefs(db, teamId, a.tagIds, `actions.${i}.tagIds`);
  });
}

export function createRule(db: Db, teamId: string, input: RuleInput): Rule {
  const conditions = input.conditions as Condition;
  const actions = input.actions as Action[];
  return write(db, teamId, (w) => {
    checkRule(db, teamId, { conditions, actions });
    const id = w.insert('rule', {
      name: input.name,
      stage: input.stage,
      enabled: input.enabled ? 1 : 0,
      conditions: JSON.stringify(conditions),
      actions: JSON.stringify(actions),
      apply_on: JSON.stringify(input.applyOn),
    });
    return getRule(db, teamId, id);
  });
}

export function updateRule(db: Db, teamId: string, id: string, patch: RulePatch): Rule {
  return write(db, teamId, (w) => {
    const current = getRule(db, teamId, id);
    const conditions = (patch.conditions ?? current.conditions) as Condition;
    const actions = (patch.actions ?? current.actions) as Action[];
    checkRule(db, teamId, { conditions, actions });
    w.update('rule', id, {
      name: patch.name,
      stage: patch.stage,
      enabled: patch.enabled === undefined ? undefined : patch.enabled ? 1 : 0,
      conditions: patch.conditions ? JSON.stringify(conditions) : undefined,
      actions: patch.actions ? JSON.stringify(actions) : undefined,
      apply_on: patch.applyOn ? JSON.stringify(patch.applyOn) : undefined,
    });
    return getRule(db, teamId, id);
  });
}

export function deleteRule(db: Db, teamId: string, id: string): Rule {
  return write(db, teamId, (w) => {
    const rule = getRule(db, teamId, id);
    w.remove('rule', id);
    return rule;
  });
}
