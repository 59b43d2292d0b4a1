import { currencyExponent } from '../../../src-shared/money';
import type { Db } from '../db';
import { InvalidReference } from '../errors';
import { newId } from '../ids';
import { type LedgerWrite, ledgerWrite } from '../ledger/derived-data';
import type { SqlValue } from '../write';
import { originOf, recordSources, type WriteSource } from './field-sources';
import { getRow } from './row';
import { checkSplits, type NewSplit, normalizeSplit, writeSplits } from './splits';
import { writeTags } from './tags';
import { checkAccount, checkAssignee } from './validation';

/**
 * Creating transactions: manual ones, and an import's lines through the same function. Every write goes through
 * ledgerWrite, which keeps balances, base amounts, the daily roll-up and review states right in the same
 * transaction. Decisions: docs/decisions/0050–0053.
 */

/** A transaction to create, in minor units (routes convert the API's major units at the boundary). */
export interface NewTransaction {
  /** A caller-chosen id (a sync replica's); default a new one. */
  id?: string;
  bankAccountId: string;
  name: string;
  amountMinor: number;
  currency: string;
  date: string;
  manual: boolean;
  status?: 'posted' | 'pending' | 'excluded' | 'completed' | 'archived' | 'exported';
  description?: string | null;
  counterpartyName?: string | null;
  merchantName?: string | null;
  method?: string;
  categorySlug?: string | null;
  note?: string | null;
  internal?: boolean;
  recurring?: boolean;
  frequency?: string | null;
  assignedId?: string | null;
  tagIds?: readonly string[];
  splits?: readonly NewSplit[] | null;
  internalId?: string;
  metadata?: Record<string, unknown>;
  /** Columns other areas add to transactions (an import's bank id, fingerprint, batch): passed through as they are. */
  extra?: Readonly<Record<string, SqlValue>>;
}

/** Fields of a create that count as set by the creator (for provenance). */
const CREATE_FIELDS: [keyof NewTransaction, string][] = [
  ['categorySlug', 'category'],
  ['note', 'note'],
  ['tagIds', 'tags'],
  ['internal', 'internal'],
  ['recurring', 'recurring'],
  ['frequency', 'frequency'],
  ['assignedId', 'assignedId'],
  ['splits', 'splits'],
];

/** Creates transactions in one write; returns their ids in input order. */
export function createTransactions(
  db: Db,
  teamId: string,
  inputs: readonly NewTransaction[],
  source: WriteSource = { source: 'user' },
): string[] {
  return ledgerWrite(
    db,
    teamId,
    (lw) => {
      const ids: string[] = [];
      inputs.forEach((t, i) => {
        try {
          ids.push(insertOne(lw, t, source));
        } catch (err) {
          if (inputs.length > 1 && err instanceof InvalidReference) {
            throw new InvalidReference(`${i}.${err.field}`, `Transaction ${i}: ${err.message}`);
          }
          throw err;
        }
      });
      return ids;
    },
    { origin: originOf(source) },
  );
}

function insertOne(lw: LedgerWrite, t: NewTransaction, source: WriteSource): string {
  checkAccount(lw, t.bankAccountId, t.currency);
  checkAssignee(lw, t.assignedId);
  currencyExponent(t.currency);
  const category = lw.checkCategory(t.categorySlug);
  if (t.splits) checkSplits(lw, t.amountMinor, t.splits);
  const status = t.status ?? 'posted';
  const internal = t.internal ? 1 : 0;
  const base = lw.baseAmount(t.amountMinor, t.currency, t.date);
  const id = t.id ?? newId();
  const review = lw.review({
    status,
    amount_minor: t.amountMinor,
    internal,
    reviewed_at: null,
    category_slug: category,
    attachments: 0,
  });
  lw.w.insert('transaction', {
    id,
    internal_id: t.internalId ?? id,
    bank_account_id: t.bankAccountId,
    name: t.name,
    description: t.description ?? null,
    method: t.method ?? (t.manual ? 'other' : 'unknown'),
    amount_minor: t.amountMinor,
    currency: t.currency,
    base_amount_minor: base.amount,
    base_currency: base.currency,
    counterparty_name: t.counterpartyName ?? null,
    merchant_name: t.merchantName ?? null,
    date: t.date,
    status,
    internal,
    recurring: t.recurring ? 1 : 0,
    manual: t.manual ? 1 : 0,
    frequency: t.frequency ?? null,
    note: t.note ?? null,
    category_slug: category,
    assigned_id: t.assignedId ?? null,
    metadata: JSON.stringify(t.metadata ?? {}),
    notified: 0,
    search_rowid: lw.searchRowid(),
    ...review,
    ...t.extra,
  });
  if (t.tagIds?.length) writeTags(lw, id, t.tagIds, true);
  if (t.splits) writeSplits(lw, id, t.splits);
  const row = getRow(lw.db, lw.teamId, id)!;
  lw.contribute(row, (t.splits ?? []).map(normalizeSplit), 1);
  lw.moved(t.bankAccountId, t.date, id, t.amountMinor);
  recordSources(
    lw,
    id,
    CREATE_FIELDS.filter(([k]) => t[k] !== undefined && t[k] !== null).map(([, f]) => f),
    source,
  );
  return id;
}
