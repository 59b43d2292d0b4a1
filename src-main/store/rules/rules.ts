import type { RecurringSeries, Rule, RuleInput, RulePatch } from '../../../src-shared/contract/rules';
import type { LabelledRow } from '../../../src-shared/domain/category-suggest';
import type { DetectedSeries, HistoryRow } from '../../../src-shared/domain/recurring';
import {
  type Action,
  type Condition,
  orderRules,
  type RuleDef,
  type RuleFacts,
  ruleProblems,
  specificity,
} from '../../../src-shared/domain/rules';
import { UNCATEGORIZED } from '../../../src-shared/domain/transactions';
import { currencyExponent, toMajor } from '../../../src-shared/money';
import type { Db } from '../db';
import { InvalidReference, NotFound } from '../errors';
import { fromIds, newId } from '../ids';
import { resolveTagRefs } from '../tags/tags';
import { updateTransactions } from '../transactions/update';
import { write } from '../write';

/**
 * Rules (CRUD, the facts they see, their run statistics and failures) and recurring series. Evaluation is pure
 * (src-shared/domain/rules.ts); running them is src-main/rules/apply.ts. Decisions 0130–0132.
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

/** After a run (not a dry run): how often each rule matched, and the failures to keep for the API. */
export function recordRuleRun(
  db: Db,
  teamId: string,
  matches: ReadonlyMap<string, number>,
  failures: readonly { ruleId: string; transactionId: string; message: string }[],
): void {
  write(db, teamId, (w) => {
    for (const [ruleId, n] of matches) {
      if (n === 0) continue;
      const count = db.prepare('SELECT match_count FROM rules WHERE team_id = ? AND id = ?').pluck().get(teamId, ruleId) as
        | number
        | undefined;
      if (count === undefined) continue;
      w.update('rule', ruleId, { match_count: count + n, last_matched_at: w.now });
    }
    const insert = db.prepare(
      'INSERT INTO rule_failures (id, team_id, rule_id, transaction_id, message, created_at) VALUES (?, ?, ?, ?, ?, ?)',
    );
    for (const f of failures) insert.run(newId(), teamId, f.ruleId, f.transactionId, f.message, w.now);
  });
}

export function listRuleFailures(
  db: Db,
  teamId: string,
  ruleId: string,
): { transactionId: string | null; message: string; createdAt: string }[] {
  getRule(db, teamId, ruleId);
  return db
    .prepare(
      `SELECT transaction_id AS transactionId, message, created_at AS createdAt FROM rule_failures
       WHERE team_id = ? AND rule_id = ? ORDER BY created_at DESC, id DESC LIMIT 500`,
    )
    .all(teamId, ruleId) as { transactionId: string | null; message: string; createdAt: string }[];
}

// ---------------------------------------------------------------------------------------------------------------
// What rules see of transactions.

export interface FactsRow {
  facts: RuleFacts;
  /** Fields a person set: rules leave them alone. */
  locked: Set<string>;
}

interface FactsSqlRow {
  id: string;
  name: string;
  description: string | null;
  counterparty_name: string | null;
  note: string | null;
  amount_minor: number;
  currency: string;
  bank_account_id: string;
  category_slug: string | null;
  date: string;
  internal: number | null;
  recurring: number | null;
  frequency: string | null;
  status: string;
  tag_ids: string;
  split: number;
  locked: string;
}

/** The facts' columns, over `transactions t` (the FROM clause is the caller's). */
const FACTS_SELECT = `SELECT t.id, t.name, t.description, t.counterparty_name, t.note, t.amount_minor, t.currency, t.bank_account_id,
    t.category_slug, t.date, t.internal, t.recurring, t.frequency, t.status,
    (SELECT json_group_array(tag_id) FROM transaction_tags tt WHERE tt.team_id = t.team_id AND tt.transaction_id = t.id) AS tag_ids,
    EXISTS (SELECT 1 FROM transaction_splits s WHERE s.team_id = t.team_id AND s.transaction_id = t.id) AS split,
    (SELECT json_group_array(field) FROM transaction_field_sources f
       WHERE f.team_id = t.team_id AND f.transaction_id = t.id AND f.source = 'user') AS locked`;

function toFacts(r: FactsSqlRow): FactsRow {
  return {
    facts: {
      id: r.id,
      name: r.name,
      description: r.description,
      counterparty: r.counterparty_name,
      note: r.note,
      amountMinor: r.amount_minor,
      currency: r.currency,
      exponent: currencyExponent(r.currency),
      accountId: r.bank_account_id,
      categorySlug: r.category_slug,
      date: r.date,
      tagIds: JSON.parse(r.tag_ids) as string[],
      internal: r.internal === 1,
      recurring: r.recurring === 1,
      frequency: r.frequency,
      status: r.status,
      split: r.split === 1,
    },
    locked: new Set(JSON.parse(r.locked) as string[]),
  };
}

export function factsOf(db: Db, teamId: string, ids: readonly string[]): FactsRow[] {
  const out: FactsRow[] = [];
  for (let i = 0; i < ids.length; i += 5000) {
    const chunk = ids.slice(i, i + 5000);
    const rows = db
      .prepare(`${FACTS_SELECT} FROM ${fromIds('transactions', 't')} WHERE t.team_id = ?`)
      .all(JSON.stringify(chunk), teamId) as FactsSqlRow[];
    out.push(...rows.map(toFacts));
  }
  return out;
}

/** The facts of a window of the team's transactions (excluded ones left out), oldest first; at most `cap`. */
export function factsInWindow(
  db: Db,
  teamId: string,
  scope: { start?: string; end?: string; onlyUncategorized?: boolean },
  cap: number,
): FactsRow[] {
  const rows = db
    .prepare(
      `${FACTS_SELECT} FROM transactions t WHERE t.team_id = @team AND t.date >= @start AND t.date <= @end AND t.status <> 'excluded'
       ${scope.onlyUncategorized ? 'AND t.category_slug IS NULL' : ''} ORDER BY t.date, t.id LIMIT @cap`,
    )
    .all({ team: teamId, start: scope.start ?? '0000-00-00', end: scope.end ?? '9999-12-31', cap: cap + 1 }) as FactsSqlRow[];
  if (rows.length > cap) {
    throw new InvalidReference(
      'start',
      `The window holds more than ${cap.toLocaleString('en')} transactions; narrow it with start and end`,
    );
  }
  return rows.map(toFacts);
}

/** Categorised history for learning: not internal, not excluded, with a category, within the window. */
export function labelledHistory(
  db: Db,
  teamId: string,
  window: { start?: string; end?: string } = {},
): (LabelledRow & { id: string })[] {
  return db
    .prepare(
      `SELECT id, name, description, counterparty_name AS counterparty, amount_minor AS amountMinor, category_slug AS categorySlug, date
       FROM transactions WHERE team_id = @team AND category_slug IS NOT NULL AND coalesce(internal, 0) = 0
         AND status <> 'excluded' AND date >= @start AND date <= @end`,
    )
    .all({ team: teamId, start: window.start ?? '0000-00-00', end: window.end ?? '9999-12-31' }) as (LabelledRow & {
    id: string;
  })[];
}

// ---------------------------------------------------------------------------------------------------------------
// Recurring series.

export function recurringHistory(db: Db, teamId: string, since: string): HistoryRow[] {
  return db
    .prepare(
      `SELECT id, date, amount_minor AS amountMinor, currency, bank_account_id AS accountId, counterparty_name AS counterparty, name
       FROM transactions WHERE team_id = ? AND date >= ? AND status <> 'excluded' AND coalesce(internal, 0) = 0`,
    )
    .all(teamId, since) as HistoryRow[];
}

interface SeriesRow {
  id: string;
  payee: string;
  bank_account_id: string | null;
  currency: string;
  frequency: string;
  amount_minor: number;
  next_amount_minor: number;
  first_date: string;
  last_date: string;
  next_date: string;
  occurrences: number;
  active: number;
  price_changed: number;
  category_slug: string | null;
}

function toSeries(r: SeriesRow): RecurringSeries {
  return {
    id: r.id,
    payee: r.payee,
    bankAccountId: r.bank_account_id,
    currency: r.currency,
    frequency: r.frequency,
    amount: toMajor(r.amount_minor, r.currency),
    nextAmount: toMajor(r.next_amount_minor, r.currency),
    firstDate: r.first_date,
    lastDate: r.last_date,
    nextDate: r.next_date,
    occurrences: r.occurrences,
    active: r.active === 1,
    priceChanged: r.price_changed === 1,
    categorySlug: r.category_slug,
  };
}

export function getRecurringSeries(db: Db, teamId: string, id: string): RecurringSeries {
  const row = db.prepare('SELECT * FROM recurring_series WHERE team_id = ? AND id = ?').get(teamId, id) as SeriesRow | undefined;
  if (!row) throw new NotFound('recurring series', id);
  return toSeries(row);
}

export function listRecurringSeries(db: Db, teamId: string): RecurringSeries[] {
  return (
    db
      .prepare('SELECT * FROM recurring_series WHERE team_id = ? ORDER BY active DESC, next_date, payee')
      .all(teamId) as SeriesRow[]
  ).map(toSeries);
}

/**
 * Stores detected series (upsert by key; series no longer detected are marked inactive) and marks their
 * transactions recurring with the series' frequency, leaving fields a person set. Returns the transactions marked.
 */
export function saveRecurringSeries(db: Db, teamId: string, detected: readonly DetectedSeries[]): number {
  return write(
    db,
    teamId,
    (w) => {
      const existing = new Map(
        (db.prepare('SELECT id, key FROM recurring_series WHERE team_id = ?').all(teamId) as { id: string; key: string }[]).map(
          (r) => [r.key, r.id],
        ),
      );
      let marked = 0;
      const seen = new Set<string>();
      for (const s of detected) {
        const category = db
          .prepare(
            `SELECT category_slug FROM transactions WHERE team_id = ? AND id IN (SELECT value FROM json_each(?)) AND category_slug IS NOT NULL
             GROUP BY category_slug ORDER BY count(*) DESC LIMIT 1`,
          )
          .pluck()
          .get(teamId, JSON.stringify(s.transactionIds)) as string | undefined;
        const values = {
          payee: s.payee,
          bank_account_id: s.accountId,
          currency: s.currency,
          frequency: s.frequency,
          amount_minor: s.amountMinor,
          next_amount_minor: s.nextAmountMinor,
          first_date: s.firstDate,
          last_date: s.lastDate,
          next_date: s.nextDate,
          occurrences: s.transactionIds.length,
          active: s.active ? 1 : 0,
          price_changed: s.priceChanged ? 1 : 0,
          category_slug: category ?? null,
        };
        let id = existing.get(s.key);
        if (id) w.update('recurring_series', id, values);
        else id = w.insert('recurring_series', { key: s.key, ...values });
        seen.add(s.key);
        const toMark = db
          .prepare(
            `SELECT id FROM transactions WHERE team_id = ? AND id IN (SELECT value FROM json_each(?))
             AND (coalesce(recurring, 0) = 0 OR frequency IS NOT ? OR recurring_series_id IS NOT ?)`,
          )
          .pluck()
          .all(teamId, JSON.stringify(s.transactionIds), s.frequency, id) as string[];
        if (toMark.length > 0) {
          updateTransactions(
            db,
            teamId,
            toMark,
            { recurring: true, frequency: s.frequency, extra: { recurring_series_id: id } },
            {
              source: 'system',
              sourceId: id,
              respectLocks: true,
            },
          );
          marked += toMark.length;
        }
      }
      for (const [key, id] of existing) if (!seen.has(key)) w.update('recurring_series', id, { active: 0 });
      return marked;
    },
    { origin: 'system' },
  );
}
