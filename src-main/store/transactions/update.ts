import type { Db } from '../db';
import { InvalidReference, NotFound } from '../errors';
import { type LedgerWrite, ledgerWrite } from '../ledger/derived-data';
import type { Origin, SqlValue } from '../write';
import { attachmentCount } from './attachments';
import { dropLockedFields, originOf, recordSources, type WriteSource } from './field-sources';
import { getRow } from './row';
import { checkSplits, type NewSplit, normalizeSplit, splitRows, writeSplits } from './splits';
import { writeTags } from './tags';
import { checkAssignee, checkChangeAllowed } from './validation';

/**
 * Changing transactions, with per-field provenance and locks (field-sources.ts) and the guards of validation.ts.
 * Every write goes through ledgerWrite, which keeps balances, base amounts, the daily roll-up and review states right
 * in the same transaction. Decisions: docs/decisions/0050–0053.
 */

/** A change to a transaction in minor units; undefined fields stay. */
export interface TransactionChange {
  categorySlug?: string | null;
  tagIds?: readonly string[];
  addTagIds?: readonly string[];
  note?: string | null;
  status?: string;
  internal?: boolean;
  recurring?: boolean;
  frequency?: string | null;
  taxRate?: number | null;
  taxType?: string | null;
  assignedId?: string | null;
  fulfilled?: boolean;
  reviewed?: boolean;
  splits?: readonly NewSplit[] | null;
  name?: string;
  amountMinor?: number;
  date?: string;
  description?: string | null;
  counterpartyName?: string | null;
  merchantName?: string | null;
  /** Set or clear the reconciliation stamp (reconciliation only). */
  reconciledAt?: string | null;
  extra?: Readonly<Record<string, SqlValue>>;
}

export interface UpdateResult {
  changed: boolean;
  /** Fields left as they were because a person set them (imports and rules respect those). */
  skipped: string[];
}

/** Applies a change to one transaction (see TransactionChange); NotFound for another team's or a missing id. */
export function updateTransaction(
  db: Db,
  teamId: string,
  id: string,
  change: TransactionChange,
  source: WriteSource = { source: 'user' },
): UpdateResult {
  return ledgerWrite(db, teamId, (lw) => applyChange(lw, id, change, source), { origin: originOf(source) });
}

/** The same change to many transactions, all or nothing (one unknown id, and nothing changes). */
export function updateTransactions(
  db: Db,
  teamId: string,
  ids: readonly string[],
  change: TransactionChange,
  source: WriteSource = { source: 'user' },
): UpdateResult[] {
  return ledgerWrite(
    db,
    teamId,
    (lw) => {
      const missing = ids.filter((id) => !getRow(db, teamId, id));
      if (missing.length > 0) throw new NotFound('transaction', missing.join(', '));
      return [...new Set(ids)].map((id) => applyChange(lw, id, change, source));
    },
    { origin: originOf(source) },
  );
}

/**
 * Many changes, each with its own source (a rule run: each field names the rule that set it), in one write: the
 * ledger's bookkeeping (roll-up, balances) is applied once for all of them.
 */
export function applyTransactionChanges(
  db: Db,
  teamId: string,
  items: readonly { id: string; change: TransactionChange; source: WriteSource }[],
  origin: Origin = 'rule',
): UpdateResult[] {
  return ledgerWrite(db, teamId, (lw) => items.map((i) => applyChange(lw, i.id, i.change, i.source)), { origin });
}

/** One transaction's change inside a ledger write (the update functions and a bank line's delete use it). */
export function applyChange(lw: LedgerWrite, id: string, input: TransactionChange, source: WriteSource): UpdateResult {
  const { db, teamId, w } = lw;
  const before = getRow(db, teamId, id);
  if (!before) throw new NotFound('transaction', id);
  const change: TransactionChange = { ...input };
  const skipped = source.respectLocks ? dropLockedFields(db, teamId, id, change) : [];
  checkChangeAllowed(before, change, source);
  if (change.assignedId !== undefined) checkAssignee(lw, change.assignedId);

  const values: Record<string, SqlValue | undefined> = {};
  const setFields: string[] = [];
  const set = (column: string, value: SqlValue, field: string) => {
    values[column] = value;
    setFields.push(field);
  };

  if (change.categorySlug !== undefined) {
    const slug = lw.checkCategory(change.categorySlug);
    if (slug !== before.category_slug) {
      set('category_slug', slug, 'category');
      // The hosted rule: a new category's tax applies, so the transaction's own override goes.
      if (change.taxRate === undefined) values.tax_rate = null;
      if (change.taxType === undefined) values.tax_type = null;
    }
  }
  if (change.note !== undefined) set('note', change.note, 'note');
  if (change.internal !== undefined) set('internal', change.internal ? 1 : 0, 'internal');
  if (change.recurring !== undefined) set('recurring', change.recurring ? 1 : 0, 'recurring');
  if (change.frequency !== undefined) set('frequency', change.frequency, 'frequency');
  if (change.taxRate !== undefined) set('tax_rate', change.taxRate, 'taxRate');
  if (change.taxType !== undefined) set('tax_type', change.taxType, 'taxType');
  if (change.assignedId !== undefined) set('assigned_id', change.assignedId, 'assignedId');
  if (change.name !== undefined) set('name', change.name, 'name');
  if (change.description !== undefined) set('description', change.description, 'description');
  if (change.counterpartyName !== undefined) set('counterparty_name', change.counterpartyName, 'counterpartyName');
  if (change.merchantName !== undefined) set('merchant_name', change.merchantName, 'merchantName');
  if (change.amountMinor !== undefined) set('amount_minor', change.amountMinor, 'amount');
  if (change.date !== undefined) set('date', change.date, 'date');
  if (change.reconciledAt !== undefined) values.reconciled_at = change.reconciledAt;
  let status = change.status ?? before.status;
  if (change.fulfilled !== undefined) {
    if (change.fulfilled && !['exported', 'excluded', 'archived'].includes(status)) status = 'completed';
    if (!change.fulfilled && status === 'completed') status = 'posted';
  }
  if (status !== before.status) set('status', status, 'status');
  if (change.reviewed !== undefined) {
    const reviewedAt = change.reviewed ? (before.reviewed_at ?? w.now) : null;
    if (reviewedAt !== before.reviewed_at) set('reviewed_at', reviewedAt, 'reviewed');
  }
  for (const [k, v] of Object.entries(change.extra ?? {})) values[k] = v;

  const amount = (values.amount_minor as number | undefined) ?? before.amount_minor;
  const date = (values.date as string | undefined) ?? before.date;
  const oldSplits = lw.splitsOf(id);
  let splits = oldSplits;
  const oldFull = splitRows(db, teamId, id);
  if (change.splits !== undefined) {
    if (change.splits) checkSplits(lw, amount, change.splits);
    splits = (change.splits ?? []).map((p) => ({ amountMinor: p.amountMinor, categorySlug: p.categorySlug ?? null }));
  } else if (oldSplits.length > 0 && amount !== before.amount_minor) {
    throw new InvalidReference('amount', 'The transaction is split: send its new splits with the new amount');
  }
  if (amount !== before.amount_minor || date !== before.date) {
    const base = lw.baseAmount(amount, before.currency, date);
    values.base_amount_minor = base.amount;
    values.base_currency = base.currency;
  }
  const attachments = attachmentCount(db, teamId, id);
  Object.assign(
    values,
    lw.review({
      status,
      amount_minor: amount,
      internal: values.internal !== undefined ? (values.internal as number) : before.internal,
      reviewed_at: values.reviewed_at !== undefined ? (values.reviewed_at as string | null) : before.reviewed_at,
      category_slug: values.category_slug !== undefined ? (values.category_slug as string | null) : before.category_slug,
      attachments,
    }),
  );

  const rowChanged = w.update('transaction', id, values);
  let linksChanged = false;
  if (change.tagIds !== undefined) {
    if (writeTags(lw, id, change.tagIds, true)) {
      linksChanged = true;
      setFields.push('tags');
    }
  }
  if (change.addTagIds?.length) {
    if (writeTags(lw, id, change.addTagIds, false)) {
      linksChanged = true;
      setFields.push('tags');
    }
  }
  if (change.splits !== undefined) {
    const next = (change.splits ?? []).map(normalizeSplit);
    if (JSON.stringify(oldFull) !== JSON.stringify(next)) {
      writeSplits(lw, id, change.splits);
      linksChanged = true;
      setFields.push('splits');
    }
  }
  if (linksChanged && !rowChanged) w.touch('transaction', id);
  if (!rowChanged && !linksChanged) return { changed: false, skipped };

  const after = getRow(db, teamId, id)!;
  lw.contribute(before, oldSplits, -1);
  lw.contribute(after, splits, 1);
  if (after.amount_minor !== before.amount_minor || after.date !== before.date) {
    lw.moved(before.bank_account_id, before.date, id, after.amount_minor - before.amount_minor);
    lw.moved(before.bank_account_id, after.date, id, 0);
  }
  recordSources(lw, id, [...new Set(setFields)], source);
  return { changed: true, skipped };
}
