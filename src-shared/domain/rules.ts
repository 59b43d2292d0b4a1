/**
 * Categorization rules (docs/decisions/0130-rules.md): a condition tree and a list of actions, evaluated purely
 * against a transaction's facts. No I/O here: the store loads rules and transactions, this module decides what
 * would change, and the store applies exactly that — so a dry run and the run it previews are the same function.
 *
 * Conditions: groups `{all: […]}` and `{any: […]}` nest to any depth; `{not: c}` and `negate: true` on a leaf
 * invert it. Leaves test one field:
 * - text fields (name, description, counterparty, note): is, contains, starts_with, one_of, matches (a regular
 *   expression); case-insensitive unless `caseSensitive`; text is compared after Unicode NFKC normalisation and
 *   whitespace collapsing;
 * - amount (major units, signed): eq, approx (within `tolerancePct`, default 5 %), between [min, max], gt, lt,
 *   sign (income | expense);
 * - account, currency, category: is, one_of (category also `empty`);
 * - date: before, after, between [from, to] (inclusive days), day_of_month [from, to].
 *
 * Order (deterministic): stages pre → default → post; within a stage by specificity ascending (a more specific rule
 * runs later and its actions win), ties by id. Specificity sums per leaf weights (exact text or amount 10, one_of 8,
 * starts_with 6, approx 6, contains 4, between 5, matches 3, other leaves 2); an `any` group counts its least
 * specific branch, `not` counts half its child.
 *
 * Actions: set category, add tags, set or append a note (append is skipped when the note already carries the text), rename the counterparty, mark internal, mark recurring
 * (with a frequency), exclude, split by fixed amounts and/or percentages (in the order given; the remainder part
 * absorbs rounding and is what is left of the amount).
 */

export const RULE_STAGES = ['pre', 'default', 'post'] as const;
export type RuleStage = (typeof RULE_STAGES)[number];

export const TEXT_FIELDS = ['name', 'description', 'counterparty', 'note'] as const;
export type TextField = (typeof TEXT_FIELDS)[number];

export type TextOp = 'is' | 'contains' | 'starts_with' | 'one_of' | 'matches';
export type AmountOp = 'eq' | 'approx' | 'between' | 'gt' | 'lt' | 'sign';

export type Leaf =
  | { field: TextField; op: TextOp; value: string | string[]; caseSensitive?: boolean; negate?: boolean }
  | {
      field: 'amount';
      op: AmountOp;
      value: number | [number, number] | 'income' | 'expense';
      tolerancePct?: number;
      negate?: boolean;
    }
  | { field: 'account' | 'currency'; op: 'is' | 'one_of'; value: string | string[]; negate?: boolean }
  | { field: 'category'; op: 'is' | 'one_of' | 'empty'; value?: string | string[]; negate?: boolean }
  | {
      field: 'date';
      op: 'before' | 'after' | 'between' | 'day_of_month';
      value: string | [string, string] | [number, number];
      negate?: boolean;
    };

export type Condition = Leaf | { all: Condition[] } | { any: Condition[] } | { not: Condition };

export interface SplitPart {
  /** A fixed amount in major units (sign follows the transaction's), or a percentage of it. */
  amount?: number;
  percent?: number;
  categorySlug?: string | null;
  note?: string | null;
}

export type Action =
  | { type: 'set_category'; categorySlug: string }
  | { type: 'add_tags'; tagIds: string[] }
  | { type: 'set_note'; note: string }
  | { type: 'append_note'; note: string }
  | { type: 'rename_counterparty'; counterpartyName: string }
  | { type: 'mark_internal' }
  | { type: 'mark_recurring'; frequency: string }
  | { type: 'exclude' }
  | { type: 'split'; parts: SplitPart[]; remainderCategorySlug?: string | null; remainderNote?: string | null };

export interface RuleDef {
  id: string;
  name: string;
  stage: RuleStage;
  enabled: boolean;
  conditions: Condition;
  actions: Action[];
}

/** What a rule sees of a transaction (amounts in minor units; `exponent` of its currency). */
export interface RuleFacts {
  id: string;
  name: string;
  description: string | null;
  counterparty: string | null;
  note: string | null;
  amountMinor: number;
  currency: string;
  exponent: number;
  accountId: string;
  categorySlug: string | null;
  date: string;
  tagIds: string[];
  internal: boolean;
  recurring: boolean;
  frequency: string | null;
  status: string;
  split: boolean;
}

export function normalizeText(text: string | null | undefined, caseSensitive = false): string {
  const t = (text ?? '').normalize('NFKC').replace(/\s+/g, ' ').trim();
  return caseSensitive ? t : t.toLocaleLowerCase('en');
}

const regexCache = new Map<string, RegExp | null>();
/** A rule's regular expression, compiled once; an invalid one never matches (and is reported by the linter). */
export function ruleRegex(source: string, caseSensitive = false): RegExp | null {
  const key = `${caseSensitive ? 'c' : 'i'}${source}`;
  if (!regexCache.has(key)) {
    try {
      regexCache.set(key, new RegExp(source, caseSensitive ? 'u' : 'iu'));
    } catch {
      regexCache.set(key, null);
    }
  }
  return regexCache.get(key)!;
}

function textOf(f: RuleFacts, field: TextField): string | null {
  return field === 'counterparty' ? f.counterparty : field === 'description' ? f.description : field === 'note' ? f.note : f.name;
}

function major(f: RuleFacts): number {
  return f.amountMinor / 10 ** f.exponent;
}

function leafMatches(leaf: Leaf, f: RuleFacts): boolean {
  switch (leaf.field) {
    case 'name':
    case 'description':
    case 'counterparty':
    case 'note': {
      const raw = textOf(f, leaf.field);
      if (leaf.op === 'matches') {
        const re = ruleRegex(String(leaf.value), leaf.caseSensitive);
        return re !== null && raw !== null && re.test(raw.normalize('NFKC'));
      }
      const text = normalizeText(raw, leaf.caseSensitive);
      const values = (Array.isArray(leaf.value) ? leaf.value : [leaf.value]).map((v) => normalizeText(v, leaf.caseSensitive));
      if (leaf.op === 'is') return text === values[0];
      if (leaf.op === 'one_of') return values.includes(text);
      if (leaf.op === 'starts_with') return values[0] !== undefined && values[0] !== '' && text.startsWith(values[0]);
      return values[0] !== undefined && values[0] !== '' && text.includes(values[0]);
    }
    case 'amount': {
      const a = major(f);
      const v = leaf.value;
      if (leaf.op === 'sign') return v === 'income' ? f.amountMinor > 0 : f.amountMinor < 0;
      if (leaf.op === 'between') {
        const [lo, hi] = v as [number, number];
        return a >= Math.min(lo, hi) && a <= Math.max(lo, hi);
      }
      const n = v as number;
      if (leaf.op === 'eq') return Math.round(n * 10 ** f.exponent) === f.amountMinor;
      if (leaf.op === 'gt') return a > n;
      if (leaf.op === 'lt') return a < n;
      const tolerance = Math.abs(n) * ((leaf.tolerancePct ?? 5) / 100);
      return Math.abs(a - n) <= tolerance;
    }
    case 'account':
    case 'currency': {
      const actual = leaf.field === 'account' ? f.accountId : f.currency;
      const values = Array.isArray(leaf.value) ? leaf.value : [leaf.value];
      return leaf.op === 'is' ? actual === values[0] : values.includes(actual);
    }
    case 'category': {
      if (leaf.op === 'empty') return f.categorySlug === null;
      const values = Array.isArray(leaf.value) ? leaf.value : [leaf.value ?? ''];
      return f.categorySlug !== null && (leaf.op === 'is' ? f.categorySlug === values[0] : values.includes(f.categorySlug));
    }
    case 'date': {
      if (leaf.op === 'day_of_month') {
        const [lo, hi] = leaf.value as [number, number];
        const d = Number(f.date.slice(8, 10));
        return d >= lo && d <= hi;
      }
      if (leaf.op === 'between') {
        const [from, to] = leaf.value as [string, string];
        return f.date >= from && f.date <= to;
      }
      return leaf.op === 'before' ? f.date < (leaf.value as string) : f.date > (leaf.value as string);
    }
  }
}

export function matches(c: Condition, f: RuleFacts): boolean {
  if ('all' in c) return c.all.every((x) => matches(x, f));
  if ('any' in c) return c.any.some((x) => matches(x, f));
  if ('not' in c) return !matches(c.not, f);
  const m = leafMatches(c, f);
  return c.negate ? !m : m;
}

const WEIGHTS: Record<string, number> = {
  is: 10,
  eq: 10,
  one_of: 8,
  starts_with: 6,
  approx: 6,
  between: 5,
  contains: 4,
  matches: 3,
};

export function specificity(c: Condition): number {
  if ('all' in c) return c.all.reduce((s, x) => s + specificity(x), 0);
  if ('any' in c) return c.any.length === 0 ? 0 : Math.min(...c.any.map(specificity));
  if ('not' in c) return specificity(c.not) / 2;
  const isTextOrAmount = c.field === 'amount' || (TEXT_FIELDS as readonly string[]).includes(c.field);
  const w = isTextOrAmount ? (WEIGHTS[c.op] ?? 2) : 2;
  return c.negate ? w / 2 : w;
}

const STAGE_RANK: Record<RuleStage, number> = { pre: 0, default: 1, post: 2 };

/** The order rules run in (see the header): later ones win. */
export function orderRules<R extends RuleDef>(rules: readonly R[]): R[] {
  return rules
    .filter((r) => r.enabled)
    .map((r) => ({ r, s: specificity(r.conditions) }))
    .sort(
      (a, b) => STAGE_RANK[a.r.stage] - STAGE_RANK[b.r.stage] || a.s - b.s || (a.r.id < b.r.id ? -1 : a.r.id > b.r.id ? 1 : 0),
    )
    .map((x) => x.r);
}

/** The fields a rule run may change on a transaction, as they would be after it. */
export interface RuleOutcome {
  categorySlug?: string | null;
  addTagIds?: string[];
  note?: string | null;
  counterpartyName?: string | null;
  internal?: boolean;
  recurring?: boolean;
  frequency?: string | null;
  status?: string;
  splits?: { amountMinor: number; categorySlug: string | null; note: string | null }[];
}

export interface FieldChange {
  field: string;
  before: unknown;
  after: unknown;
  ruleId: string;
}

/**
 * Parts of a split action in minor units: fixed amounts and percentages in order (each percentage rounded half away
 * from zero), then the remainder part with whatever is left, so the parts always sum exactly to the amount. Null
 * when the fixed parts exceed the amount (the action fails and is reported).
 */
export function splitParts(
  amountMinor: number,
  exponent: number,
  action: Extract<Action, { type: 'split' }>,
): { amountMinor: number; categorySlug: string | null; note: string | null }[] | null {
  const sign = amountMinor < 0 ? -1 : 1;
  const total = Math.abs(amountMinor);
  const parts: { amountMinor: number; categorySlug: string | null; note: string | null }[] = [];
  let used = 0;
  for (const p of action.parts) {
    let minor: number;
    if (p.amount !== undefined) minor = Math.round(Math.abs(p.amount) * 10 ** exponent);
    else {
      const exact = (total * (p.percent ?? 0)) / 100;
      minor = Math.sign(exact) * Math.round(Math.abs(exact));
    }
    used += minor;
    parts.push({ amountMinor: sign * minor, categorySlug: p.categorySlug ?? null, note: p.note ?? null });
  }
  if (used > total) return null;
  parts.push({
    amountMinor: sign * (total - used),
    categorySlug: action.remainderCategorySlug ?? null,
    note: action.remainderNote ?? null,
  });
  return parts.filter((p, i) => p.amountMinor !== 0 || i === parts.length - 1);
}

export interface Evaluation {
  /** Rules that matched, in run order. */
  matched: string[];
  /** The final value of every field the rules set, with the rule that set it last. */
  changes: FieldChange[];
  outcome: RuleOutcome;
  /** Actions that could not apply (a split larger than the amount, a bad regex is reported by lint instead). */
  failures: { ruleId: string; message: string }[];
}

/**
 * Runs the ordered rules over one transaction: folds every matching rule's actions onto the transaction's current
 * values (later rules win), and returns only what differs from the current values. `locked` fields (set by a person)
 * are left alone and not reported as changes.
 */
export function evaluate(rules: readonly RuleDef[], f: RuleFacts, locked: ReadonlySet<string> = new Set()): Evaluation {
  const ordered = orderRules(rules);
  const state: Required<Omit<RuleOutcome, 'addTagIds' | 'splits'>> & { tags: string[]; splits: RuleOutcome['splits'] | null } = {
    categorySlug: f.categorySlug,
    note: f.note,
    counterpartyName: f.counterparty,
    internal: f.internal,
    recurring: f.recurring,
    frequency: f.frequency,
    status: f.status,
    tags: [...f.tagIds],
    splits: null,
  };
  const setBy = new Map<string, string>();
  const failures: { ruleId: string; message: string }[] = [];
  const matched: string[] = [];
  const set = <K extends keyof typeof state>(key: K, field: string, value: (typeof state)[K], ruleId: string) => {
    if (locked.has(field)) return;
    state[key] = value;
    setBy.set(field, ruleId);
  };
  for (const rule of ordered) {
    const facts: RuleFacts = { ...f, categorySlug: state.categorySlug, note: state.note, counterparty: state.counterpartyName };
    if (!matches(rule.conditions, facts)) continue;
    matched.push(rule.id);
    for (const a of rule.actions) {
      switch (a.type) {
        case 'set_category':
          set('categorySlug', 'category', a.categorySlug, rule.id);
          break;
        case 'add_tags':
          if (!locked.has('tags')) {
            state.tags = [...new Set([...state.tags, ...a.tagIds])];
            setBy.set('tags', rule.id);
          }
          break;
        case 'set_note':
          set('note', 'note', a.note, rule.id);
          break;
        case 'append_note':
          // Idempotent: a note that already carries the text is left as it is, so running rules again changes nothing.
          if (!state.note?.includes(a.note)) set('note', 'note', state.note ? `${state.note} ${a.note}` : a.note, rule.id);
          break;
        case 'rename_counterparty':
          set('counterpartyName', 'counterpartyName', a.counterpartyName, rule.id);
          break;
        case 'mark_internal':
          set('internal', 'internal', true, rule.id);
          break;
        case 'mark_recurring':
          set('recurring', 'recurring', true, rule.id);
          set('frequency', 'frequency', a.frequency, rule.id);
          break;
        case 'exclude':
          set('status', 'status', 'excluded', rule.id);
          break;
        case 'split': {
          if (f.split) break;
          const parts = splitParts(f.amountMinor, f.exponent, a);
          if (!parts) failures.push({ ruleId: rule.id, message: 'the fixed split parts are larger than the transaction' });
          else set('splits', 'splits', parts, rule.id);
          break;
        }
      }
    }
  }
  const changes: FieldChange[] = [];
  const outcome: RuleOutcome = {};
  const diff = (field: string, before: unknown, after: unknown, apply: () => void) => {
    const ruleId = setBy.get(field);
    if (ruleId && JSON.stringify(before) !== JSON.stringify(after)) {
      changes.push({ field, before, after, ruleId });
      apply();
    }
  };
  diff('category', f.categorySlug, state.categorySlug, () => {
    outcome.categorySlug = state.categorySlug;
  });
  const added = state.tags.filter((t) => !f.tagIds.includes(t));
  diff('tags', [...f.tagIds].sort(), [...state.tags].sort(), () => {
    outcome.addTagIds = added;
  });
  diff('note', f.note, state.note, () => {
    outcome.note = state.note;
  });
  diff('counterpartyName', f.counterparty, state.counterpartyName, () => {
    outcome.counterpartyName = state.counterpartyName;
  });
  diff('internal', f.internal, state.internal, () => {
    outcome.internal = state.internal;
  });
  diff('recurring', f.recurring, state.recurring, () => {
    outcome.recurring = state.recurring;
  });
  diff('frequency', f.frequency, state.frequency, () => {
    outcome.frequency = state.frequency;
  });
  diff('status', f.status, state.status, () => {
    outcome.status = state.status;
  });
  if (state.splits) {
    diff('splits', null, state.splits, () => {
      outcome.splits = state.splits ?? undefined;
    });
  }
  return { matched, changes, outcome, failures };
}

/** Problems in a rule that make it unusable as written (bad regular expressions, empty groups, empty actions). */
export function ruleProblems(rule: Pick<RuleDef, 'conditions' | 'actions'>): string[] {
  const problems: string[] = [];
  const walk = (c: Condition, path: string) => {
    if ('all' in c || 'any' in c) {
      const list = 'all' in c ? c.all : c.any;
      if (list.length === 0) problems.push(`${path}: an empty group`);
      list.forEach((x, i) => {
        walk(x, `${path}.${'all' in c ? 'all' : 'any'}[${i}]`);
      });
    } else if ('not' in c) walk(c.not, `${path}.not`);
    else if (c.op === 'matches' && ruleRegex(String(c.value), 'caseSensitive' in c ? c.caseSensitive : false) === null) {
      problems.push(`${path}: "${String(c.value)}" is not a valid regular expression`);
    }
  };
  walk(rule.conditions, 'conditions');
  if (rule.actions.length === 0) problems.push('actions: a rule needs at least one action');
  return problems;
}
