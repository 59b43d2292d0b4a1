/**
 * A rule as the editor holds it (docs/decisions/0130-rules.md): the condition tree as groups and leaves with the
 * values as typed, the actions likewise, each with a key for React. `draftOf` reads a saved rule (or a suggested
 * one) into it and `inputOf` turns it back into the API's RuleInput, or says per part what is wrong — amounts are
 * read in the user's number format (parse-number.ts), one-of lists one value a line.
 */
import type { RuleConditionInput, RuleInput } from '../../../src-shared/contract/rules';
import type { RuleStage } from '../../../src-shared/domain/rules';
import { parseDecimal } from '../../lib/parse-number';

type Action = RuleInput['actions'][number];

export const CONDITION_FIELDS = [
  'counterparty',
  'name',
  'description',
  'note',
  'amount',
  'category',
  'account',
  'currency',
  'date',
] as const;
export type ConditionField = (typeof CONDITION_FIELDS)[number];

/** The comparisons each field offers, in the order the editor lists them. */
export const OPS: Readonly<Record<ConditionField, readonly string[]>> = {
  counterparty: ['is', 'contains', 'starts_with', 'one_of', 'matches'],
  name: ['is', 'contains', 'starts_with', 'one_of', 'matches'],
  description: ['is', 'contains', 'starts_with', 'one_of', 'matches'],
  note: ['is', 'contains', 'starts_with', 'one_of', 'matches'],
  amount: ['eq', 'approx', 'between', 'gt', 'lt', 'sign'],
  category: ['is', 'one_of', 'empty'],
  account: ['is', 'one_of'],
  currency: ['is', 'one_of'],
  date: ['before', 'after', 'between', 'day_of_month'],
};

export const ACTION_TYPES = [
  'set_category',
  'add_tags',
  'set_note',
  'append_note',
  'rename_counterparty',
  'mark_internal',
  'mark_recurring',
  'exclude',
  'split',
] as const;
export type ActionType = (typeof ACTION_TYPES)[number];

export interface LeafDraft {
  kind: 'leaf';
  key: number;
  field: ConditionField;
  op: string;
  /** The value as typed: text, a number, a day, an id or slug, or one value a line for `one_of`. */
  value: string;
  /** The second bound (between, day of month) or the tolerance in percent (approx). */
  value2: string;
  negate: boolean;
  caseSensitive: boolean;
}

export interface GroupDraft {
  kind: 'group';
  key: number;
  mode: 'all' | 'any';
  negate: boolean;
  children: NodeDraft[];
}

export type NodeDraft = LeafDraft | GroupDraft;

export interface PartDraft {
  key: number;
  by: 'amount' | 'percent';
  value: string;
  categorySlug: string;
}

export interface ActionDraft {
  key: number;
  type: ActionType;
  categorySlug: string;
  tagIds: string[];
  /** The note or the counterparty's new name. */
  text: string;
  frequency: string;
  parts: PartDraft[];
}

export interface RuleDraft {
  name: string;
  stage: RuleStage;
  enabled: boolean;
  applyOn: ('import' | 'create')[];
  root: GroupDraft;
  actions: ActionDraft[];
}

let nextKey = 1;
const key = () => nextKey++;

export function newLeaf(field: ConditionField = 'counterparty'): LeafDraft {
  return { kind: 'leaf', key: key(), field, op: OPS[field][0]!, value: '', value2: '', negate: false, caseSensitive: false };
}

export function newGroup(children: NodeDraft[] = [newLeaf()]): GroupDraft {
  return { kind: 'group', key: key(), mode: 'all', negate: false, children };
}

export function newAction(type: ActionType = 'set_category'): ActionDraft {
  return {
    key: key(),
    type,
    categorySlug: '',
    tagIds: [],
    text: '',
    frequency: 'monthly',
    parts: type === 'split' ? [newPart()] : [],
  };
}

export function newPart(): PartDraft {
  return { key: key(), by: 'percent', value: '', categorySlug: '' };
}

export function emptyDraft(): RuleDraft {
  return { name: '', stage: 'default', enabled: true, applyOn: ['import', 'create'], root: newGroup(), actions: [newAction()] };
}

// ---------------------------------------------------------------------------------------------------------------
// Reading a rule into the editor.

const lines = (v: unknown) => (Array.isArray(v) ? v.map(String).join('\n') : String(v ?? ''));

function leafDraft(c: Record<string, unknown>, format: (n: number) => string): LeafDraft {
  const field = c.field as ConditionField;
  const leaf = { ...newLeaf(field), op: String(c.op), negate: c.negate === true, caseSensitive: c.caseSensitive === true };
  const v = c.value;
  if (c.op === 'one_of') return { ...leaf, value: lines(v) };
  if (Array.isArray(v)) {
    const [a, b] = v as (string | number)[];
    const written = (x: string | number | undefined) => (typeof x === 'number' && field === 'amount' ? format(x) : String(x));
    return { ...leaf, value: written(a), value2: written(b) };
  }
  if (field === 'amount' && typeof v === 'number')
    return { ...leaf, value: format(v), value2: c.tolerancePct === undefined ? '' : String(c.tolerancePct) };
  return { ...leaf, value: v === undefined ? '' : String(v) };
}

function nodeDraft(c: RuleConditionInput, format: (n: number) => string): NodeDraft {
  if ('all' in c) return { ...newGroup(c.all.map((x) => nodeDraft(x, format))), mode: 'all' };
  if ('any' in c) return { ...newGroup(c.any.map((x) => nodeDraft(x, format))), mode: 'any' };
  if ('not' in c) {
    const inner = nodeDraft(c.not, format);
    return { ...inner, negate: !inner.negate };
  }
  return leafDraft(c as unknown as Record<string, unknown>, format);
}

function partDraft(
  p: { amount?: number; percent?: number; categorySlug?: string | null },
  format: (n: number) => string,
): PartDraft {
  return p.percent !== undefined
    ? { key: key(), by: 'percent', value: String(p.percent), categorySlug: p.categorySlug ?? '' }
    : { key: key(), by: 'amount', value: format(p.amount ?? 0), categorySlug: p.categorySlug ?? '' };
}

function actionDraft(a: Action, format: (n: number) => string): ActionDraft {
  const d = newAction(a.type);
  switch (a.type) {
    case 'set_category':
      return { ...d, categorySlug: a.categorySlug };
    case 'add_tags':
      return { ...d, tagIds: [...a.tagIds] };
    case 'set_note':
    case 'append_note':
      return { ...d, text: a.note };
    case 'rename_counterparty':
      return { ...d, text: a.counterpartyName };
    case 'mark_recurring':
      return { ...d, frequency: a.frequency };
    case 'split':
      return { ...d, parts: a.parts.map((p) => partDraft(p, format)), categorySlug: a.remainderCategorySlug ?? '' };
    default:
      return d;
  }
}

/** The editor's draft of a saved or suggested rule; amounts written with `format` (the user's number format). */
export function draftOf(
  rule: Pick<RuleInput, 'name' | 'stage' | 'enabled' | 'applyOn' | 'actions'> & { conditions: unknown },
  format: (n: number) => string = String,
): RuleDraft {
  const node = nodeDraft(rule.conditions as RuleConditionInput, format);
  // The editor's top is always a group: a rule of one leaf is a group of one.
  const root = node.kind === 'group' ? node : newGroup([node]);
  return {
    name: rule.name,
    stage: rule.stage ?? 'default',
    enabled: rule.enabled ?? true,
    applyOn: [...(rule.applyOn ?? ['import', 'create'])] as RuleDraft['applyOn'],
    root,
    actions: (rule.actions as Action[]).map((a) => actionDraft(a, format)),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Writing the draft as the API's input.

/** What is wrong, by the key of the leaf, action or part it concerns (`name`, `conditions`, `actions` for the whole). */
export type DraftErrors = Record<string, string>;
/** The error codes (`rules:errors.<code>`) the editor shows. */
export type DraftError =
  | 'required'
  | 'number'
  | 'percent'
  | 'day'
  | 'dayOfMonth'
  | 'currency'
  | 'regex'
  | 'emptyGroup'
  | 'noAction'
  | 'tags';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

function leafInput(d: LeafDraft, parse: (s: string) => number | null): RuleConditionInput | DraftError {
  const negate = d.negate ? { negate: true } : {};
  const text = d.value.trim();
  if (d.op === 'one_of') {
    const values = d.value
      .split('\n')
      .map((v) => v.trim())
      .filter(Boolean);
    if (values.length === 0) return 'required';
    if (d.field === 'currency') return { field: 'currency', op: 'one_of', value: values.map((v) => v.toUpperCase()), ...negate };
    return { field: d.field, op: 'one_of', value: values, ...negate } as RuleConditionInput;
  }
  switch (d.field) {
    case 'counterparty':
    case 'name':
    case 'description':
    case 'note': {
      if (!text) return 'required';
      if (d.op === 'matches') {
        try {
          new RegExp(text, 'u');
        } catch {
          return 'regex';
        }
      }
      return {
        field: d.field,
        op: d.op as 'is',
        value: text,
        ...(d.caseSensitive ? { caseSensitive: true } : {}),
        ...negate,
      };
    }
    case 'amount': {
      if (d.op === 'sign') return { field: 'amount', op: 'sign', value: d.value === 'income' ? 'income' : 'expense', ...negate };
      const a = parse(d.value);
      if (a === null) return 'number';
      if (d.op === 'between') {
        const b = parse(d.value2);
        if (b === null) return 'number';
        return { field: 'amount', op: 'between', value: [a, b], ...negate };
      }
      if (d.op === 'approx' && d.value2.trim()) {
        const pct = parse(d.value2);
        if (pct === null || pct < 0 || pct > 100) return 'percent';
        return { field: 'amount', op: 'approx', value: a, tolerancePct: pct, ...negate };
      }
      return { field: 'amount', op: d.op as 'eq', value: a, ...negate };
    }
    case 'category':
      if (d.op === 'empty') return { field: 'category', op: 'empty', ...negate };
      return text ? { field: 'category', op: 'is', value: text, ...negate } : 'required';
    case 'account':
      return text ? { field: 'account', op: 'is', value: text, ...negate } : 'required';
    case 'currency':
      return /^[A-Za-z]{3}$/.test(text) ? { field: 'currency', op: 'is', value: text.toUpperCase(), ...negate } : 'currency';
    case 'date': {
      if (d.op === 'day_of_month') {
        const [a, b] = [Number(d.value), Number(d.value2 || d.value)];
        const ok = (n: number) => Number.isInteger(n) && n >= 1 && n <= 31;
        return ok(a) && ok(b) ? { field: 'date', op: 'day_of_month', value: [a, b], ...negate } : 'dayOfMonth';
      }
      if (!DAY.test(text)) return 'day';
      if (d.op === 'between') {
        const to = d.value2.trim();
        return DAY.test(to) ? { field: 'date', op: 'between', value: [text, to], ...negate } : 'day';
      }
      return { field: 'date', op: d.op as 'before', value: text, ...negate };
    }
  }
}

function nodeInput(d: NodeDraft, parse: (s: string) => number | null, errors: DraftErrors): RuleConditionInput | null {
  if (d.kind === 'leaf') {
    const out = leafInput(d, parse);
    if (typeof out === 'string') {
      errors[d.key] = out;
      return null;
    }
    return out;
  }
  if (d.children.length === 0) {
    errors[d.key] = 'emptyGroup';
    return null;
  }
  const children = d.children.map((c) => nodeInput(c, parse, errors));
  if (children.some((c) => c === null)) return null;
  const group = (d.mode === 'all' ? { all: children } : { any: children }) as RuleConditionInput;
  return d.negate ? { not: group } : group;
}

function actionInput(d: ActionDraft, parse: (s: string) => number | null, errors: DraftErrors): Action | null {
  const fail = (code: DraftError, at: number = d.key) => {
    errors[at] = code;
    return null;
  };
  switch (d.type) {
    case 'set_category':
      return d.categorySlug ? { type: 'set_category', categorySlug: d.categorySlug } : fail('required');
    case 'add_tags':
      return d.tagIds.length ? { type: 'add_tags', tagIds: d.tagIds } : fail('tags');
    case 'set_note':
      return { type: 'set_note', note: d.text.trim() };
    case 'append_note':
      return d.text.trim() ? { type: 'append_note', note: d.text.trim() } : fail('required');
    case 'rename_counterparty':
      return d.text.trim() ? { type: 'rename_counterparty', counterpartyName: d.text.trim() } : fail('required');
    case 'mark_recurring':
      return { type: 'mark_recurring', frequency: d.frequency as 'monthly' };
    case 'split': {
      const parts: { amount?: number; percent?: number; categorySlug: string | null }[] = [];
      for (const p of d.parts) {
        const n = parse(p.value);
        if (n === null || n <= 0) return fail('number', p.key);
        if (p.by === 'percent' && n > 100) return fail('percent', p.key);
        parts.push({ [p.by]: n, categorySlug: p.categorySlug || null });
      }
      if (parts.length === 0) return fail('required');
      return { type: 'split', parts, remainderCategorySlug: d.categorySlug || null };
    }
    default:
      return { type: d.type };
  }
}

/** The draft as the API's RuleInput, or what is wrong with it (keys as DraftErrors says). */
export function inputOf(
  draft: RuleDraft,
  parse: (s: string) => number | null = (s) => parseDecimal(s),
): { input: RuleInput; errors?: undefined } | { input?: undefined; errors: DraftErrors } {
  const errors: DraftErrors = {};
  if (!draft.name.trim()) errors.name = 'required';
  const conditions = nodeInput(draft.root, parse, errors);
  if (draft.actions.length === 0) errors.actions = 'noAction';
  const actions = draft.actions.map((a) => actionInput(a, parse, errors));
  if (Object.keys(errors).length > 0 || conditions === null) return { errors };
  return {
    input: {
      name: draft.name.trim(),
      stage: draft.stage,
      enabled: draft.enabled,
      // A group of one is saved as its leaf: the rule reads (and is weighed) the same.
      conditions: 'all' in conditions && conditions.all.length === 1 ? conditions.all[0]! : conditions,
      actions: actions as Action[],
      applyOn: draft.applyOn,
    },
  };
}

/** "Always categorise this counterparty as …": the rule for a transaction's payee (its counterparty, else its name). */
export function counterpartyRule(
  t: { counterpartyName: string | null; name: string },
  categorySlug: string,
  ruleName: string,
): RuleInput {
  const conditions: RuleConditionInput = t.counterpartyName
    ? { field: 'counterparty', op: 'is', value: t.counterpartyName }
    : { field: 'name', op: 'is', value: t.name };
  return {
    name: ruleName,
    stage: 'default',
    enabled: true,
    conditions,
    actions: [{ type: 'set_category', categorySlug }],
    applyOn: ['import', 'create'],
  };
}
