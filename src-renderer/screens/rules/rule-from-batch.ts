/**
 * "Create a rule from these" after an import (docs/decisions/0116-rule-from-import-batch.md): what a rule made from
 * an import batch's rows proposes. The rows still without a category are what the rule is for (all of them when
 * none is left); their most frequent counterparty names the rule, else their most frequent name, else — they share
 * nothing — the first row's payee, which the screen says is a guess to change. Payees are grouped as the rule engine
 * compares them (`normalizeText`), so the proposal matches exactly the rows it counted. The category is the one the
 * payee's categorised rows of the batch agree on most, else the one suggested most for its rows, else left to choose.
 */
import type { RuleConditionInput } from '../../../src-shared/contract/rules';
import type { TransactionListItem } from '../../../src-shared/contract/transactions';
import { normalizeText } from '../../../src-shared/domain/rules';
import { draftOf, type RuleDraft } from './rule-draft';

export type BatchRow = Pick<TransactionListItem, 'id' | 'name' | 'counterparty_name' | 'category'>;

/** What the proposed condition stands on: a counterparty or name shared by the rows, or only the first row's. */
export type ProposalBasis = 'counterparty' | 'name' | 'firstRow';

export interface BatchProposal {
  basis: ProposalBasis;
  field: 'counterparty' | 'name';
  /** The payee as the batch spells it most (its first spelling on a tie). */
  value: string;
  /** The batch's rows the condition selects (of those considered), in batch order. */
  rowIds: string[];
  /** How many rows were considered: the uncategorised ones, or all when every row has a category. */
  considered: number;
  /** False when every row of the batch had a category already, so all were considered. */
  uncategorisedOnly: boolean;
}

/** The most frequent key among `items`, with its items; on a tie the key seen first. */
function mostFrequent<T>(items: readonly T[], keyOf: (item: T) => string | null): { key: string; items: T[] } | null {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = keyOf(item);
    if (k) groups.set(k, [...(groups.get(k) ?? []), item]);
  }
  let best: { key: string; items: T[] } | null = null;
  for (const [key, group] of groups) if (!best || group.length > best.items.length) best = { key, items: group };
  return best;
}

/** The spelling of a payee most of its rows use. */
const spelling = (values: string[]) => mostFrequent(values, (v) => v.trim())?.key ?? values[0]!.trim();

/** The condition a batch's rows suggest, or null for a batch without rows. */
export function proposeConditions(rows: readonly BatchRow[]): BatchProposal | null {
  const open = rows.filter((r) => !r.category);
  const pool = open.length > 0 ? open : rows;
  if (pool.length === 0) return null;
  const shared = (top: { items: BatchRow[] } | null) => top !== null && (top.items.length >= 2 || pool.length === 1);
  const base = { considered: pool.length, uncategorisedOnly: open.length > 0 };
  const fields = [
    ['counterparty', (r: BatchRow) => r.counterparty_name],
    ['name', (r: BatchRow) => r.name],
  ] as const;
  for (const [field, text] of fields) {
    const top = mostFrequent(pool, (r) => normalizeText(text(r)) || null);
    if (top && shared(top))
      return {
        ...base,
        basis: field,
        field,
        value: spelling(top.items.map((r) => text(r)!)),
        rowIds: top.items.map((r) => r.id),
      };
  }
  // Nothing in common: the first row's payee as a starting point, as "always categorise this counterparty" takes it.
  const first = pool[0]!;
  const field = first.counterparty_name?.trim() ? 'counterparty' : 'name';
  const value = (field === 'counterparty' ? first.counterparty_name! : first.name).trim();
  const rowIds = pool.filter(
    (r) => normalizeText(field === 'counterparty' ? r.counterparty_name : r.name) === normalizeText(value),
  );
  return { ...base, basis: 'firstRow', field, value, rowIds: rowIds.map((r) => r.id) };
}

/** Where the proposed category comes from: the payee's categorised rows of the batch, the suggestions, or nowhere. */
export type CategorySource = 'batch' | 'suggested' | null;

/**
 * The category to set: the one most of the payee's already categorised rows in the batch have, else the one
 * suggested for most of its rows (`suggested`: each row's suggested slug, null where the model abstains).
 */
export function proposeCategory(
  rows: readonly BatchRow[],
  proposal: BatchProposal,
  suggested: readonly (string | null)[] = [],
): { slug: string | null; source: CategorySource } {
  const payee = normalizeText(proposal.value);
  const text = (r: BatchRow) => (proposal.field === 'counterparty' ? r.counterparty_name : r.name);
  const siblings = rows.filter((r) => r.category && normalizeText(text(r)) === payee);
  const fromBatch = mostFrequent(siblings, (r) => r.category);
  if (fromBatch) return { slug: fromBatch.key, source: 'batch' };
  const fromSuggestions = mostFrequent(suggested, (s) => s);
  return fromSuggestions ? { slug: fromSuggestions.key, source: 'suggested' } : { slug: null, source: null };
}

/**
 * The editor's draft: "<field> is <payee> and no category → categorise as <slug>" (the shape of the learned
 * suggestions: a category a person or an earlier rule gave is left alone), running on import like any new rule.
 */
export function proposalDraft(proposal: BatchProposal, categorySlug: string | null, name: string): RuleDraft {
  const conditions: RuleConditionInput = {
    all: [
      { field: proposal.field, op: 'is', value: proposal.value },
      { field: 'category', op: 'empty' },
    ],
  };
  return draftOf({
    name,
    stage: 'default',
    enabled: true,
    applyOn: ['import', 'create'],
    conditions,
    actions: [{ type: 'set_category', categorySlug: categorySlug ?? '' }],
  });
}
