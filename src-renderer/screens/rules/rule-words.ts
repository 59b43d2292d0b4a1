/**
 * A rule in words, as the rules list and the editor say it: "counterparty is “Uber” and money out → categorise as
 * Travel". Categories, accounts and tags by their names; amounts and days in the user's formats; lists joined the
 * way the language joins them (Intl.ListFormat: "a, b and c", "a, b und c").
 */
import type { RuleConditionInput, RuleInput } from '../../../src-shared/contract/rules';
import { i18n, t } from '../../i18n';
import { formatDate, formatNumber } from '../../lib/format';

/** How the words name what a rule refers to by id or slug. */
export interface RuleNames {
  category(slug: string): string;
  account(id: string): string;
  tag(id: string): string;
}

type Action = RuleInput['actions'][number];

function joined(items: readonly string[], type: 'conjunction' | 'disjunction'): string {
  return new Intl.ListFormat(i18n.language, { style: 'long', type }).format(items);
}

const quoted = (v: unknown) => t('rules:words.quoted', { value: String(v) });
const amount = (n: unknown) => formatNumber(Number(n), 2);
const values = (v: unknown) => (Array.isArray(v) ? v : [v]);

function leafWords(c: Record<string, unknown>, names: RuleNames): string {
  const field = String(c.field);
  const fieldName = t(`rules:words.fields.${field}`);
  const v = c.value;
  switch (field) {
    case 'amount': {
      if (c.op === 'sign') return t(v === 'income' ? 'rules:words.amount.income' : 'rules:words.amount.expense');
      if (c.op === 'between') {
        const [from, to] = v as [number, number];
        return t('rules:words.amount.between', { from: amount(from), to: amount(to) });
      }
      if (c.op === 'approx')
        return t('rules:words.amount.approx', { amount: amount(v), pct: formatNumber(Number(c.tolerancePct ?? 5)) });
      return t(`rules:words.amount.${String(c.op)}`, { amount: amount(v) });
    }
    case 'date': {
      if (c.op === 'between') {
        const [from, to] = v as [string, string];
        return t('rules:words.date.between', { from: formatDate(from), to: formatDate(to) });
      }
      if (c.op === 'day_of_month') {
        const [from, to] = v as [number, number];
        return t('rules:words.date.dayOfMonth', { from, to });
      }
      return t(`rules:words.date.${String(c.op)}`, { day: formatDate(String(v)) });
    }
    case 'category':
    case 'account':
    case 'currency': {
      if (c.op === 'empty') return t('rules:words.noCategory');
      const name = (x: unknown) =>
        field === 'category' ? names.category(String(x)) : field === 'account' ? names.account(String(x)) : String(x);
      const all = values(v).map(name);
      return c.op === 'one_of'
        ? t('rules:words.oneOf', { field: fieldName, values: joined(all, 'disjunction') })
        : t('rules:words.is', { field: fieldName, value: all[0] ?? '' });
    }
    default: {
      const text =
        c.op === 'one_of'
          ? t('rules:words.oneOf', { field: fieldName, values: joined(values(v).map(quoted), 'disjunction') })
          : t(`rules:words.text.${String(c.op)}`, { field: fieldName, value: String(v) });
      return c.caseSensitive ? t('rules:words.caseSensitive', { what: text }) : text;
    }
  }
}

/** A condition tree in words; groups inside groups in parentheses. */
export function conditionWords(c: RuleConditionInput | unknown, names: RuleNames, nested = false): string {
  const node = c as RuleConditionInput;
  if ('all' in node || 'any' in node) {
    const children = 'all' in node ? node.all : node.any;
    const text = joined(
      children.map((x) => conditionWords(x, names, true)),
      'all' in node ? 'conjunction' : 'disjunction',
    );
    return nested && children.length > 1 ? `(${text})` : text;
  }
  if ('not' in node) return t('rules:words.not', { what: conditionWords(node.not, names, false) });
  const leaf = node as unknown as Record<string, unknown>;
  const text = leafWords(leaf, names);
  return leaf.negate ? t('rules:words.not', { what: text }) : text;
}

export function actionWords(a: Action | unknown, names: RuleNames): string {
  const action = a as Action;
  switch (action.type) {
    case 'set_category':
      return t('rules:words.actions.set_category', { category: names.category(action.categorySlug) });
    case 'add_tags':
      return t('rules:words.actions.add_tags', { tags: joined(action.tagIds.map(names.tag), 'conjunction') });
    case 'set_note':
      return action.note ? t('rules:words.actions.set_note', { note: action.note }) : t('rules:words.actions.clear_note');
    case 'append_note':
      return t('rules:words.actions.append_note', { note: action.note });
    case 'rename_counterparty':
      return t('rules:words.actions.rename_counterparty', { name: action.counterpartyName });
    case 'mark_recurring':
      return t('rules:words.actions.mark_recurring', { frequency: t(`transactions:frequencies.${action.frequency}`) });
    case 'split':
      return t('rules:words.actions.split', { count: action.parts.length + 1 });
    default:
      return t(`rules:words.actions.${action.type}`);
  }
}

/** Every action of a rule in words, joined as a list. */
export function actionsWords(actions: readonly unknown[], names: RuleNames): string {
  return joined(
    actions.map((a) => actionWords(a, names)),
    'conjunction',
  );
}
