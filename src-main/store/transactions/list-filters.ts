import type { TransactionFilters } from '../../../src-shared/contract/transactions';
import { UNCATEGORIZED } from '../../../src-shared/domain/transactions';
import { exponentSql, majorSql } from '../currency-sql';
import { ftsQuery } from '../list/fts';

/**
 * The list's filters as SQL over `transactions t` (named parameters), with the fingerprint a cursor carries so that
 * it is refused under other filters. The list and the review counts share it.
 */

const MAJOR_SQL = majorSql('t.amount_minor', 't.currency');

/** The q text as an exact amount in minor units for each exponent it fits ("12.5" → {2: 1250, 3: 12500}). */
function amountsOf(q: string): Map<number, number> {
  const out = new Map<number, number>();
  const m = /^\s*-?(\d{1,13})(?:[.,](\d{1,4}))?\s*$/.exec(q);
  if (!m) return out;
  for (const e of [0, 2, 3, 4]) {
    const frac = m[2] ?? '';
    if (frac.length > e) continue;
    out.set(e, Number(m[1] + frac.padEnd(e, '0')));
  }
  return out;
}

export interface Where {
  where: string[];
  params: Record<string, unknown>;
  fingerprint: unknown[];
}

/** The filters' WHERE clauses (ANDed), their named parameters and the fingerprint of what they select. */
export function filtersSql(teamId: string, f: Partial<TransactionFilters>): Where {
  const where = ['t.team_id = @team'];
  const params: Record<string, unknown> = { team: teamId };
  const json = (name: string, values: readonly unknown[]) => {
    params[name] = JSON.stringify([...new Set(values)]);
    return `(SELECT value FROM json_each(@${name}))`;
  };
  if (f.q) {
    const match = ftsQuery(f.q);
    const amounts = amountsOf(f.q);
    const parts: string[] = [];
    if (match) {
      parts.push('t.search_rowid IN (SELECT rowid FROM transactions_fts WHERE transactions_fts MATCH @match)');
      params.match = match;
    }
    for (const [e, v] of amounts) {
      parts.push(`(abs(t.amount_minor) = @amount${e} AND ${exponentSql('t.currency')} = ${e})`);
      params[`amount${e}`] = v;
    }
    if (parts.length > 0) where.push(`(${parts.join(' OR ')})`);
  }
  if (f.start) {
    where.push('t.date >= @start');
    params.start = f.start;
  }
  if (f.end) {
    where.push('t.date <= @end');
    params.end = f.end;
  }
  if (f.categories?.length) {
    const slugs = json('categories', f.categories);
    const expanded = `(SELECT c.slug FROM transaction_categories c LEFT JOIN transaction_categories p ON p.id = c.parent_id
        WHERE c.team_id = @team AND (c.slug IN ${slugs} OR p.slug IN ${slugs}))`;
    const parts = [
      `t.category_slug IN ${expanded}`,
      `EXISTS (SELECT 1 FROM transaction_splits s WHERE s.team_id = t.team_id AND s.transaction_id = t.id AND s.category_slug IN ${expanded})`,
    ];
    if (f.categories.includes(UNCATEGORIZED)) parts.push('t.category_slug IS NULL');
    where.push(`(${parts.join(' OR ')})`);
  }
  if (f.tags?.length) {
    where.push(
      `EXISTS (SELECT 1 FROM transaction_tags tt WHERE tt.team_id = t.team_id AND tt.transaction_id = t.id AND tt.tag_id IN ${json('tags', f.tags)})`,
    );
  }
  if (f.accounts?.length) where.push(`t.bank_account_id IN ${json('accounts', f.accounts)}`);
  if (f.assignees?.length) where.push(`t.assigned_id IN ${json('assignees', f.assignees)}`);
  if (f.statuses?.length) where.push(`t.status IN ${json('statuses', f.statuses)}`);
  if (f.reviewStates?.length) where.push(`t.review_state IN ${json('reviewStates', f.reviewStates)}`);
  if (!f.statuses?.length && !f.reviewStates?.includes('excluded')) where.push("t.status NOT IN ('excluded', 'archived')");
  if (f.amountRange?.min !== undefined) {
    where.push(`${MAJOR_SQL} >= @amountMin`);
    params.amountMin = f.amountRange.min;
  }
  if (f.amountRange?.max !== undefined) {
    where.push(`${MAJOR_SQL} <= @amountMax`);
    params.amountMax = f.amountRange.max;
  }
  if (f.absAmountRange?.min !== undefined) {
    where.push(`abs(${MAJOR_SQL}) >= @absMin`);
    params.absMin = f.absAmountRange.min;
  }
  if (f.absAmountRange?.max !== undefined) {
    where.push(`abs(${MAJOR_SQL}) <= @absMax`);
    params.absMax = f.absAmountRange.max;
  }
  if (f.importBatch) {
    where.push('t.import_batch_id = @importBatch');
    params.importBatch = f.importBatch;
  }
  if (f.amount) {
    where.push(`abs(${MAJOR_SQL}) ${f.amount.op === 'gte' ? '>=' : '<='} @amountBound`);
    params.amountBound = f.amount.value;
  }
  if (f.type) where.push(f.type === 'income' ? 't.amount_minor > 0' : 't.amount_minor < 0');
  if (f.attachments !== undefined) {
    where.push(
      `${f.attachments ? '' : 'NOT '}EXISTS (SELECT 1 FROM transaction_attachments x WHERE x.team_id = t.team_id AND x.transaction_id = t.id)`,
    );
  }
  if (f.manual !== undefined) where.push(f.manual ? 't.manual = 1' : 'coalesce(t.manual, 0) = 0');
  if (f.recurring !== undefined) where.push(f.recurring ? 't.recurring = 1' : 'coalesce(t.recurring, 0) = 0');
  if (f.internal !== undefined) where.push(f.internal ? 't.internal = 1' : 'coalesce(t.internal, 0) = 0');
  if (f.fulfilled !== undefined) where.push(`t.is_fulfilled = ${f.fulfilled ? 1 : 0}`);
  if (f.exported !== undefined) where.push(f.exported ? "t.status = 'exported'" : "t.status <> 'exported'");
  const sorted = (v?: readonly unknown[]) => (v ? [...new Set(v.map(String))].sort() : null);
  const fingerprint = [
    teamId,
    f.q ?? null,
    f.start ?? null,
    f.end ?? null,
    sorted(f.categories),
    sorted(f.tags),
    sorted(f.accounts),
    sorted(f.assignees),
    sorted(f.statuses),
    sorted(f.reviewStates),
    f.amountRange ?? null,
    f.amount ?? null,
    f.absAmountRange ?? null,
    f.importBatch ?? null,
    f.type ?? null,
    f.attachments ?? null,
    f.manual ?? null,
    f.recurring ?? null,
    f.internal ?? null,
    f.fulfilled ?? null,
    f.exported ?? null,
  ];
  return { where, params, fingerprint };
}
