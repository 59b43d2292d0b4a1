import { codes as currencyCodes } from 'currency-codes';
import type {
  Transaction,
  TransactionFilters,
  TransactionListItem,
  TransactionSort,
  TransactionSortColumn,
} from '../../../src-shared/contract/transactions';
import { REVIEW_STATES, type ReviewState } from '../../../src-shared/domain/review-state';
import { includedTaxMinor } from '../../../src-shared/domain/tax';
import { listStatus, UNCATEGORIZED } from '../../../src-shared/domain/transactions';
import { currencyExponent, toMajor } from '../../../src-shared/money';
import type { Db } from '../db';
import { Conflict, InvalidReference, NotFound } from '../errors';
import { fromIds, newId } from '../ids';
import { type LedgerRow, type LedgerWrite, ledgerWrite } from '../ledger/derived-data';
import { listFingerprint } from '../list/cursor';
import { ftsQuery } from '../list/fts';
import { keysetPage, type SortColumn } from '../list/keyset';
import { resolveTagRefs } from '../tags/tags';
import type { Origin, SqlValue } from '../write';
import { dropPaymentSuggestions, refuseIfHeld } from './holders';

/**
 * Transactions of a team: create (manual, or from an import through the same function), update with per-field
 * provenance and locks, delete (manual only; bank lines are excluded instead), splits, attachments, the detailed
 * read and the list. Every write goes through ledgerWrite, which keeps balances, base amounts, the daily roll-up
 * and review states right in the same transaction. Decisions: docs/decisions/0050–0053.
 */

/** Who sets a field: recorded per field; 'user' fields are locked against rules and imports. */
export type FieldSourceKind = 'user' | 'import' | 'rule' | 'workflow' | 'sync' | 'system';

export interface WriteSource {
  source: FieldSourceKind;
  /** The rule, import batch or user behind the write. */
  sourceId?: string | null;
  /** Skip fields whose last source was a person (imports and rules must); the skipped ones are returned. */
  respectLocks?: boolean;
}

const ORIGIN_OF: Record<FieldSourceKind, Origin> = {
  user: 'local',
  import: 'import',
  rule: 'rule',
  workflow: 'workflow',
  sync: 'sync',
  system: 'system',
};

/** A transaction to create, in minor units (routes convert the API's major units at the boundary). */
export interface NewTransaction {
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

export interface NewSplit {
  amountMinor: number;
  categorySlug?: string | null;
  taxRate?: number | null;
  taxType?: string | null;
  note?: string | null;
}

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

/** Fields whose change is refused on a reconciled transaction: they make up the bank statement. */
const STATEMENT_FIELDS = ['amountMinor', 'date', 'status', 'splits', 'internal'] as const;
/** Fields only a manual transaction may change: a bank line's own facts come from the bank. */
const MANUAL_ONLY = ['name', 'amountMinor', 'date', 'description', 'counterpartyName'] as const;

interface Row extends LedgerRow {
  team_id: string;
  internal_id: string;
  name: string;
  description: string | null;
  method: string;
  balance_minor: number | null;
  base_amount_minor: number | null;
  base_currency: string | null;
  tax_rate: number | null;
  tax_type: string | null;
  counterparty_name: string | null;
  merchant_name: string | null;
  recurring: number | null;
  frequency: string | null;
  note: string | null;
  assigned_id: string | null;
  metadata: string;
  notified: number | null;
  review_state: string;
  created_at: string;
  updated_at: string;
}

function getRow(db: Db, teamId: string, id: string): Row | undefined {
  return db.prepare('SELECT * FROM transactions WHERE team_id = ? AND id = ?').get(teamId, id) as Row | undefined;
}

function attachmentCount(db: Db, teamId: string, id: string): number {
  return db
    .prepare('SELECT count(*) FROM transaction_attachments WHERE team_id = ? AND transaction_id = ?')
    .pluck()
    .get(teamId, id) as number;
}

// ---------------------------------------------------------------------------------------------------------------
// Writing.

function checkSplits(lw: LedgerWrite, amountMinor: number, splits: readonly NewSplit[]): void {
  const sum = splits.reduce((s, p) => s + p.amountMinor, 0);
  if (sum !== amountMinor) {
    throw new InvalidReference(
      'splits',
      `The split parts sum to ${sum} minor units but the transaction is ${amountMinor}: the parts must add up exactly`,
    );
  }
  splits.forEach((p, i) => {
    lw.checkCategory(p.categorySlug, `splits.${i}.categorySlug`);
  });
}

function writeSplits(lw: LedgerWrite, transactionId: string, splits: readonly NewSplit[] | null): void {
  const { db, teamId } = lw;
  db.prepare('DELETE FROM transaction_splits WHERE team_id = ? AND transaction_id = ?').run(teamId, transactionId);
  if (!splits) return;
  const insert = db.prepare(
    `INSERT INTO transaction_splits (id, team_id, transaction_id, position, amount_minor, category_slug, tax_rate, tax_type, note)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  splits.forEach((p, i) => {
    insert.run(
      newId(),
      teamId,
      transactionId,
      i,
      p.amountMinor,
      lw.checkCategory(p.categorySlug),
      p.taxRate ?? null,
      p.taxType ?? null,
      p.note ?? null,
    );
  });
}

function writeTags(lw: LedgerWrite, transactionId: string, tagIds: readonly string[], replace: boolean): boolean {
  const { db, teamId } = lw;
  const wanted = resolveTagRefs(db, teamId, tagIds).map((t) => t.id);
  const current = db
    .prepare('SELECT tag_id FROM transaction_tags WHERE team_id = ? AND transaction_id = ? ORDER BY tag_id')
    .pluck()
    .all(teamId, transactionId) as string[];
  const next = replace ? [...new Set(wanted)].sort() : [...new Set([...current, ...wanted])].sort();
  if (next.join(',') === current.join(',')) return false;
  db.prepare('DELETE FROM transaction_tags WHERE team_id = ? AND transaction_id = ?').run(teamId, transactionId);
  const insert = db.prepare('INSERT INTO transaction_tags (team_id, transaction_id, tag_id) VALUES (?, ?, ?)');
  for (const t of next) insert.run(teamId, transactionId, t);
  return true;
}

function recordSources(lw: LedgerWrite, transactionId: string, fields: readonly string[], s: WriteSource): void {
  if (fields.length === 0) return;
  const upsert = lw.db.prepare(
    `INSERT INTO transaction_field_sources (team_id, transaction_id, field, source, source_id, set_at) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (transaction_id, field) DO UPDATE SET source = excluded.source, source_id = excluded.source_id, set_at = excluded.set_at`,
  );
  for (const f of fields) upsert.run(lw.teamId, transactionId, f, s.source, s.sourceId ?? null, lw.w.now);
}

function lockedFields(db: Db, teamId: string, transactionId: string): Set<string> {
  return new Set(
    db
      .prepare("SELECT field FROM transaction_field_sources WHERE team_id = ? AND transaction_id = ? AND source = 'user'")
      .pluck()
      .all(teamId, transactionId) as string[],
  );
}

function checkAccount(lw: LedgerWrite, accountId: string, currency: string): void {
  const account = lw.db.prepare('SELECT currency FROM bank_accounts WHERE team_id = ? AND id = ?').get(lw.teamId, accountId) as
    | { currency: string }
    | undefined;
  if (!account) throw new InvalidReference('bankAccountId', `Unknown bank account ${accountId}`);
  if (account.currency !== currency) {
    throw new InvalidReference(
      'currency',
      `The account holds ${account.currency}; a transaction on it must be in ${account.currency}, not ${currency}`,
    );
  }
}

function checkAssignee(lw: LedgerWrite, userId: string | null | undefined): void {
  if (!userId) return;
  const member = lw.db.prepare('SELECT 1 FROM team_members WHERE team_id = ? AND user_id = ?').get(lw.teamId, userId);
  if (!member) throw new InvalidReference('assignedId', `User ${userId} is not a member of this team`);
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
    { origin: ORIGIN_OF[source.source] },
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
  const id = newId();
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
  return ledgerWrite(db, teamId, (lw) => applyChange(lw, id, change, source), { origin: ORIGIN_OF[source.source] });
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
    { origin: ORIGIN_OF[source.source] },
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

function applyChange(lw: LedgerWrite, id: string, input: TransactionChange, source: WriteSource): UpdateResult {
  const { db, teamId, w } = lw;
  const before = getRow(db, teamId, id);
  if (!before) throw new NotFound('transaction', id);
  const change: TransactionChange = { ...input };
  const skipped: string[] = [];
  if (source.respectLocks) {
    const locked = lockedFields(db, teamId, id);
    const fieldOf: Partial<Record<keyof TransactionChange, string>> = {
      categorySlug: 'category',
      tagIds: 'tags',
      addTagIds: 'tags',
      taxRate: 'taxRate',
      taxType: 'taxType',
      assignedId: 'assignedId',
      reviewed: 'reviewed',
      counterpartyName: 'counterpartyName',
      amountMinor: 'amount',
    };
    for (const key of Object.keys(change) as (keyof TransactionChange)[]) {
      const field = fieldOf[key] ?? key;
      if (change[key] !== undefined && locked.has(field)) {
        delete change[key];
        skipped.push(field);
      }
    }
  }

  if (before.reconciled_at && change.reconciledAt !== null) {
    const touched = STATEMENT_FIELDS.filter((f) => change[f] !== undefined);
    const really = touched.filter((f) => {
      if (f === 'amountMinor') return change.amountMinor !== before.amount_minor;
      if (f === 'date') return change.date !== before.date;
      if (f === 'status') return change.status !== before.status;
      if (f === 'internal') return (change.internal ? 1 : 0) !== (before.internal ?? 0);
      return true;
    });
    if (really.length > 0) {
      throw new Conflict(
        'The transaction is reconciled against a bank statement',
        `Unreconcile it first to change ${really.join(', ')}`,
      );
    }
  }
  if (!before.manual) {
    const bankFacts = MANUAL_ONLY.filter((f) => change[f] !== undefined && source.source === 'user');
    const differing = bankFacts.filter((f) => {
      const current = {
        name: before.name,
        amountMinor: before.amount_minor,
        date: before.date,
        description: before.description,
        counterpartyName: before.counterparty_name,
      }[f];
      return change[f] !== current;
    });
    if (differing.length > 0) {
      throw new InvalidReference(
        differing[0]!,
        `${differing.join(', ')} of a bank transaction come from the bank and cannot be edited; set a note or split it instead`,
      );
    }
  }
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

function normalizeSplit(p: NewSplit): Required<NewSplit> {
  return {
    amountMinor: p.amountMinor,
    categorySlug: p.categorySlug && p.categorySlug !== UNCATEGORIZED ? p.categorySlug : null,
    taxRate: p.taxRate ?? null,
    taxType: p.taxType ?? null,
    note: p.note ?? null,
  };
}

function splitRows(db: Db, teamId: string, transactionId: string): Required<NewSplit>[] {
  return db
    .prepare(
      `SELECT amount_minor AS amountMinor, category_slug AS categorySlug, tax_rate AS taxRate, tax_type AS taxType, note
       FROM transaction_splits WHERE team_id = ? AND transaction_id = ? ORDER BY position`,
    )
    .all(teamId, transactionId) as Required<NewSplit>[];
}

/**
 * Re-derives the review state of transactions after something they depend on changed elsewhere (their category was
 * moved into or out of a group that needs no receipt). A transaction whose state changes records a change.
 */
export function refreshReviewStates(db: Db, teamId: string, ids: readonly string[]): number {
  return ledgerWrite(
    db,
    teamId,
    (lw) => {
      let changed = 0;
      for (const id of ids) {
        const row = getRow(db, teamId, id);
        if (!row) continue;
        if (lw.w.update('transaction', id, lw.review({ ...row, attachments: attachmentCount(db, teamId, id) }))) changed++;
      }
      return changed;
    },
    { origin: 'system' },
  );
}

export type DeleteOutcomeKind = 'deleted' | 'excluded';

/** Deletes a manual transaction; a bank line is set to status excluded instead. Refused when reconciled. */
export function deleteTransactions(
  db: Db,
  teamId: string,
  ids: readonly string[],
  source: WriteSource = { source: 'user' },
): { id: string; outcome: DeleteOutcomeKind }[] {
  return ledgerWrite(
    db,
    teamId,
    (lw) => {
      const rows = [...new Set(ids)].map((id) => {
        const row = getRow(db, teamId, id);
        if (!row) throw new NotFound('transaction', id);
        return row;
      });
      const reconciled = rows.filter((r) => r.reconciled_at);
      if (reconciled.length > 0) {
        throw new Conflict(
          'A reconciled transaction cannot be deleted',
          `Unreconcile first: ${reconciled.map((r) => r.id).join(', ')}`,
        );
      }
      const removed = rows.filter((r) => r.manual).map((r) => r.id);
      refuseIfHeld(db, teamId, removed);
      dropPaymentSuggestions(lw.w, db, teamId, removed);
      return rows.map((row) => {
        if (!row.manual) {
          applyChange(lw, row.id, { status: 'excluded' }, source);
          return { id: row.id, outcome: 'excluded' as const };
        }
        lw.contribute(row, lw.splitsOf(row.id), -1);
        lw.moved(row.bank_account_id, row.date, row.id, -row.amount_minor);
        lw.w.remove('transaction', row.id);
        return { id: row.id, outcome: 'deleted' as const };
      });
    },
    { origin: ORIGIN_OF[source.source] },
  );
}

export interface AttachmentInput {
  sha256: string;
  filename: string | null;
  size: number;
  mimeType: string;
  /** The document or inbox item the file came from. */
  sourceId?: string | null;
}

/** Attaches a stored file (by its sha256 in the data dir's file store) to a transaction; returns the attachment id. */
export function attachToTransaction(
  db: Db,
  teamId: string,
  transactionId: string,
  file: AttachmentInput,
  source: WriteSource = { source: 'user' },
): string {
  return ledgerWrite(
    db,
    teamId,
    (lw) => {
      const row = getRow(db, teamId, transactionId);
      if (!row) throw new NotFound('transaction', transactionId);
      const id = newId();
      db.prepare(
        `INSERT INTO transaction_attachments (id, team_id, transaction_id, sha256, filename, size, mime_type, source_id, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(id, teamId, transactionId, file.sha256, file.filename, file.size, file.mimeType, file.sourceId ?? null, lw.w.now);
      refreshReview(lw, row);
      recordSources(lw, transactionId, ['attachments'], source);
      return id;
    },
    { origin: ORIGIN_OF[source.source] },
  );
}

/** Removes an attachment; returns its file's sha256 (the caller drops the file when nothing else references it). */
export function detachFromTransaction(db: Db, teamId: string, transactionId: string, attachmentId: string): string {
  return ledgerWrite(db, teamId, (lw) => {
    const row = getRow(db, teamId, transactionId);
    if (!row) throw new NotFound('transaction', transactionId);
    const att = db
      .prepare('SELECT sha256 FROM transaction_attachments WHERE team_id = ? AND transaction_id = ? AND id = ?')
      .pluck()
      .get(teamId, transactionId, attachmentId) as string | undefined;
    if (!att) throw new NotFound('attachment', attachmentId);
    db.prepare('DELETE FROM transaction_attachments WHERE team_id = ? AND id = ?').run(teamId, attachmentId);
    refreshReview(lw, row);
    return att;
  });
}

/** Re-derives fulfilment and review state after the attachments changed; records the change. */
function refreshReview(lw: LedgerWrite, row: Row): void {
  const review = lw.review({ ...row, attachments: attachmentCount(lw.db, lw.teamId, row.id) });
  if (!lw.w.update('transaction', row.id, review)) lw.w.touch('transaction', row.id);
}

// ---------------------------------------------------------------------------------------------------------------
// Reading.

interface DetailRow extends Row {
  cat_json: string | null;
  account_json: string;
  tags_json: string;
  attachments_json: string;
  splits_json: string;
  sources_json: string;
}

const DETAIL_COLUMNS = `t.*,
  (SELECT json_object('id', c.id, 'name', c.name, 'color', c.color, 'taxRate', c.tax_rate, 'taxType', c.tax_type, 'slug', c.slug)
     FROM transaction_categories c WHERE c.team_id = t.team_id AND c.slug = t.category_slug) AS cat_json,
  (SELECT json_object('id', a.id, 'name', a.name, 'currency', a.currency, 'connectionId', a.connection_id,
     'connectionName', a.connection_name, 'institutionName', a.institution_name, 'logo', a.institution_logo)
     FROM bank_accounts a WHERE a.team_id = t.team_id AND a.id = t.bank_account_id) AS account_json,
  (SELECT json_group_array(json_array(id, name)) FROM (
     SELECT g.id, g.name FROM transaction_tags tt JOIN tags g ON g.id = tt.tag_id
     WHERE tt.team_id = t.team_id AND tt.transaction_id = t.id ORDER BY g.name COLLATE NOCASE, g.id)) AS tags_json,
  (SELECT json_group_array(json_array(id, sha256, filename, size, mime_type)) FROM (
     SELECT * FROM transaction_attachments x WHERE x.team_id = t.team_id AND x.transaction_id = t.id ORDER BY created_at, id))
     AS attachments_json,
  (SELECT json_group_array(json_array(s.id, s.amount_minor, s.category_slug, s.tax_rate, s.tax_type, s.note,
       (SELECT c.tax_rate FROM transaction_categories c WHERE c.team_id = s.team_id AND c.slug = s.category_slug),
       (SELECT c.tax_type FROM transaction_categories c WHERE c.team_id = s.team_id AND c.slug = s.category_slug)))
     FROM (SELECT * FROM transaction_splits s WHERE s.team_id = t.team_id AND s.transaction_id = t.id ORDER BY position) s)
     AS splits_json,
  (SELECT json_group_object(field, json_array(source, source_id, set_at)) FROM transaction_field_sources f
     WHERE f.team_id = t.team_id AND f.transaction_id = t.id) AS sources_json`;

type SplitTuple = [string, number, string | null, number | null, string | null, string | null, number | null, string | null];

function toTransaction(r: DetailRow): Transaction {
  const m = (minor: number | null) => (minor === null ? null : toMajor(minor, r.currency));
  const cat = r.cat_json ? (JSON.parse(r.cat_json) as Transaction['category'] & object) : null;
  const taxRate = r.tax_rate ?? cat?.taxRate ?? null;
  const taxType = r.tax_type ?? cat?.taxType ?? null;
  const account = JSON.parse(r.account_json) as {
    id: string;
    name: string;
    currency: string;
    connectionId: string | null;
    connectionName: string | null;
    institutionName: string | null;
    logo: string | null;
  };
  const tags = (JSON.parse(r.tags_json) as [string, string][]).map(([id, name]) => ({ id, name }));
  const attachments = (JSON.parse(r.attachments_json) as [string, string, string | null, number, string][]).map(
    ([id, sha, filename, size, type]) => ({ id, path: ['attachments', id, filename ?? sha], size, type, filename }),
  );
  const splits = (JSON.parse(r.splits_json) as SplitTuple[]).map(([id, amount, category, rate, type, note, catRate, catType]) => {
    const effectiveRate = rate ?? catRate;
    return {
      id,
      amount: toMajor(amount, r.currency),
      category,
      taxRate: effectiveRate,
      taxType: type ?? catType,
      taxAmount: effectiveRate === null ? null : toMajor(includedTaxMinor(amount, effectiveRate), r.currency),
      note,
    };
  });
  const sources = Object.fromEntries(
    Object.entries(JSON.parse(r.sources_json ?? '{}') as Record<string, [string, string | null, string]>).map(
      ([field, [source, sourceId, setAt]]) => [field, { source: source as FieldSourceKind, sourceId, setAt }],
    ),
  );
  let metadata: Record<string, unknown> = {};
  try {
    metadata = JSON.parse(r.metadata) as Record<string, unknown>;
  } catch {
    metadata = {};
  }
  const bool = (v: number | null) => (v === null ? null : v === 1);
  return {
    id: r.id,
    internalId: r.internal_id,
    name: r.name,
    amount: toMajor(r.amount_minor, r.currency),
    balance: m(r.balance_minor),
    baseAmount: r.base_amount_minor === null || !r.base_currency ? null : toMajor(r.base_amount_minor, r.base_currency),
    baseCurrency: r.base_amount_minor === null ? null : r.base_currency,
    taxAmount: taxRate === null ? null : toMajor(includedTaxMinor(r.amount_minor, taxRate), r.currency),
    taxRate,
    taxType,
    currency: r.currency,
    counterpartyName: r.counterparty_name,
    merchantName: r.merchant_name,
    date: `${r.date}T00:00:00.000Z`,
    category: cat,
    status: r.status,
    internal: bool(r.internal),
    recurring: bool(r.recurring),
    manual: bool(r.manual),
    frequency: r.frequency,
    isFulfilled: r.is_fulfilled === 1,
    note: r.note,
    metadata,
    metadataCompleted: false,
    notified: bool(r.notified),
    account: {
      id: account.id,
      name: account.name,
      currency: account.currency,
      connection: {
        id: account.connectionId ?? `manual:${account.id}`,
        name: account.connectionName ?? account.institutionName ?? 'Manual account',
        logoUrl: account.logo,
      },
    },
    tags,
    attachments,
    description: r.description,
    method: r.method,
    bankAccountId: r.bank_account_id,
    assignedId: r.assigned_id,
    reviewState: r.review_state as ReviewState,
    reviewedAt: r.reviewed_at,
    reconciledAt: r.reconciled_at,
    taxOverridden: r.tax_rate !== null || r.tax_type !== null,
    splits,
    fieldSources: sources,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

export function getTransactions(db: Db, teamId: string, ids: readonly string[]): Transaction[] {
  if (ids.length === 0) return [];
  const rows = db
    .prepare(`SELECT ${DETAIL_COLUMNS} FROM ${fromIds('transactions', 't')} WHERE t.team_id = ?`)
    .all(JSON.stringify(ids), teamId) as DetailRow[];
  const byId = new Map(rows.map((r) => [r.id, toTransaction(r)]));
  return ids.flatMap((id) => {
    const t = byId.get(id);
    return t ? [t] : [];
  });
}

export function getTransaction(db: Db, teamId: string, id: string): Transaction {
  const [t] = getTransactions(db, teamId, [id]);
  if (!t) throw new NotFound('transaction', id);
  return t;
}

// ---------------------------------------------------------------------------------------------------------------
// The list.

/** The currency's minor-unit exponent in SQL (a CASE over the ISO list, built once). */
const EXPONENT_SQL = (() => {
  const cases = currencyCodes()
    .filter((c) => /^[A-Z]{3}$/.test(c))
    .map((c) => [c, currencyExponent(c)] as const)
    .filter(([, e]) => e !== 2)
    .map(([c, e]) => `WHEN '${c}' THEN ${e}`)
    .join(' ');
  return (col: string) => `(CASE ${col} ${cases} ELSE 2 END)`;
})();
const MAJOR_SQL = `(t.amount_minor * 1.0 / (CASE ${EXPONENT_SQL('t.currency')} WHEN 0 THEN 1 WHEN 3 THEN 1000 WHEN 4 THEN 10000 ELSE 100 END))`;

const SORTS: Record<TransactionSortColumn, SortColumn> = {
  date: { sql: 't.date', kind: 'text' },
  amount: { sql: 't.amount_minor', kind: 'number' },
  name: { sql: 't.name COLLATE NOCASE', kind: 'text' },
  status: { sql: 't.status', kind: 'text' },
  attachment: {
    sql: '(SELECT count(*) FROM transaction_attachments x WHERE x.team_id = t.team_id AND x.transaction_id = t.id)',
    kind: 'number',
  },
  assigned: { sql: "coalesce(t.assigned_id, '')", kind: 'text' },
  bank_account: {
    sql: "coalesce((SELECT a.name FROM bank_accounts a WHERE a.team_id = t.team_id AND a.id = t.bank_account_id), '') COLLATE NOCASE",
    kind: 'text',
  },
  category: { sql: "coalesce(t.category_slug, '')", kind: 'text' },
  tags: {
    sql: "coalesce((SELECT min(g.name) FROM transaction_tags tt JOIN tags g ON g.id = tt.tag_id WHERE tt.team_id = t.team_id AND tt.transaction_id = t.id), '') COLLATE NOCASE",
    kind: 'text',
  },
  counterparty: { sql: "coalesce(t.counterparty_name, '') COLLATE NOCASE", kind: 'text' },
};

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

interface Where {
  where: string[];
  params: Record<string, unknown>;
  fingerprint: unknown[];
}

function filtersSql(teamId: string, f: Partial<TransactionFilters>): Where {
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
      parts.push(`(abs(t.amount_minor) = @amount${e} AND ${EXPONENT_SQL('t.currency')} = ${e})`);
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

export interface TransactionListOptions extends Partial<TransactionFilters> {
  sort?: TransactionSort;
  cursor?: string;
  pageSize?: number;
}

interface PageOf<T> {
  data: T[];
  cursor: string | null;
  meta: { cursor: string | null; hasNextPage: boolean; hasPreviousPage: boolean };
}

/** The ids of one page of the list (the shared keyset machinery over the sort table). */
export function transactionPageIds(db: Db, teamId: string, query: TransactionListOptions) {
  const column = query.sort?.column ?? 'date';
  const direction = query.sort?.direction ?? (query.sort ? 'asc' : 'desc');
  const { where, params, fingerprint } = filtersSql(teamId, query);
  return keysetPage(db, {
    from: 'transactions t',
    id: 't.id',
    where,
    params,
    sort: SORTS[column],
    direction,
    pageSize: query.pageSize ?? 50,
    fingerprint: listFingerprint([column, direction, ...fingerprint]),
    cursor: query.cursor,
  });
}

const LIST_COLUMNS = `t.id, t.bank_account_id, t.description, t.method, t.amount_minor, t.name, t.date, t.currency, t.status,
  t.counterparty_name, t.category_slug, t.balance_minor`;

interface ListRow {
  id: string;
  bank_account_id: string;
  description: string | null;
  method: string | null;
  amount_minor: number;
  name: string;
  date: string;
  currency: string;
  status: string;
  counterparty_name: string | null;
  category_slug: string | null;
  balance_minor: number | null;
}

function toListItem(r: ListRow): TransactionListItem {
  return {
    id: r.id,
    accountId: r.bank_account_id,
    description: r.description,
    method: r.method,
    amount: toMajor(r.amount_minor, r.currency),
    name: r.name,
    date: r.date,
    currency: r.currency,
    status: listStatus(r.status),
    counterparty_name: r.counterparty_name,
    category: r.category_slug,
    balance: r.balance_minor === null ? null : toMajor(r.balance_minor, r.currency),
  };
}

export function listTransactions(db: Db, teamId: string, query: TransactionListOptions): PageOf<TransactionListItem> {
  return db.transaction(() => {
    const page = transactionPageIds(db, teamId, query);
    const rows =
      page.ids.length === 0
        ? []
        : (db
            .prepare(`SELECT ${LIST_COLUMNS} FROM ${fromIds('transactions', 't')} WHERE t.team_id = ?`)
            .all(JSON.stringify(page.ids), teamId) as ListRow[]);
    const byId = new Map(rows.map((r) => [r.id, r]));
    const data = page.ids.flatMap((id) => {
      const r = byId.get(id);
      return r ? [toListItem(r)] : [];
    });
    return {
      data,
      cursor: page.cursor,
      meta: { cursor: page.cursor, hasNextPage: page.hasNextPage, hasPreviousPage: page.hasPreviousPage },
    };
  })();
}

/** A page of detailed records (the review screens' rows), under the same filters, sort and cursor as the list. */
export function listTransactionDetails(db: Db, teamId: string, query: TransactionListOptions): PageOf<Transaction> {
  return db.transaction(() => {
    const page = transactionPageIds(db, teamId, query);
    return {
      data: getTransactions(db, teamId, page.ids),
      cursor: page.cursor,
      meta: { cursor: page.cursor, hasNextPage: page.hasNextPage, hasPreviousPage: page.hasPreviousPage },
    };
  })();
}

/** How many transactions are in each review state under the filters (the review state filter itself ignored). */
export function reviewCounts(db: Db, teamId: string, filters: Partial<TransactionFilters>): Record<ReviewState, number> {
  const { where, params } = filtersSql(teamId, { ...filters, reviewStates: [...REVIEW_STATES] });
  const rows = db
    .prepare(
      `SELECT t.review_state AS state, count(*) AS n FROM transactions t WHERE ${where.join(' AND ')} GROUP BY t.review_state`,
    )
    .all(params) as { state: ReviewState; n: number }[];
  const counts = Object.fromEntries(REVIEW_STATES.map((s) => [s, 0])) as Record<ReviewState, number>;
  for (const r of rows) counts[r.state] = r.n;
  return counts;
}
