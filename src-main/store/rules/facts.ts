import type { LabelledRow } from '../../../src-shared/domain/category-suggest';
import type { RuleFacts } from '../../../src-shared/domain/rules';
import { currencyExponent } from '../../../src-shared/money';
import type { Db } from '../db';
import { InvalidReference } from '../errors';
import { fromIds } from '../ids';

/** What rules see of transactions (their facts), and the categorised history category suggestions learn from. */

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
