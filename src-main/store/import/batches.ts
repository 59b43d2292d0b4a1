import type { CsvMapping } from '../../../src-shared/contract/import-mapping';
import { type ApiBalanceCheck, type BalanceCheck, balanceForApi } from '../../../src-shared/domain/import/balance';
import { toMajor } from '../../../src-shared/money';
import type { Db } from '../db';
import { NotFound } from '../errors';
import { listFingerprint } from '../list/cursor';
import { keysetPage } from '../list/keyset';

/**
 * Import batches as read back (docs/decisions/0062–0066): one committed (or undone) file with its counts, balance
 * check and warnings, the team's batches page by page, and each batch's per-row outcomes in file order.
 */

export interface ImportBatch {
  id: string;
  bankAccountId: string;
  fileName: string | null;
  fileSha256: string;
  fileSize: number;
  format: string;
  encoding: string;
  mapping: CsvMapping | null;
  mappingName: string | null;
  accountRef: string | null;
  status: 'committed' | 'undone';
  counts: {
    rows: number;
    created: number;
    duplicate: number;
    linked: number;
    review: number;
    rejected: number;
    transfers: number;
  };
  balance: ApiBalanceCheck | null;
  warnings: string[];
  undoneAt: string | null;
  createdAt: string;
  updatedAt: string;
}

interface BatchRow {
  id: string;
  bank_account_id: string;
  file_name: string | null;
  file_sha256: string;
  file_size: number;
  format: string;
  encoding: string;
  mapping: string | null;
  mapping_name: string | null;
  account_ref: string | null;
  status: 'committed' | 'undone';
  rows_total: number;
  created_count: number;
  duplicate_count: number;
  linked_count: number;
  review_count: number;
  rejected_count: number;
  transfer_count: number;
  balance: string | null;
  warnings: string;
  undone_at: string | null;
  created_at: string;
  updated_at: string;
  currency: string;
}

function toBatch(r: BatchRow): ImportBatch {
  return {
    id: r.id,
    bankAccountId: r.bank_account_id,
    fileName: r.file_name,
    fileSha256: r.file_sha256,
    fileSize: r.file_size,
    format: r.format,
    encoding: r.encoding,
    mapping: r.mapping ? (JSON.parse(r.mapping) as CsvMapping) : null,
    mappingName: r.mapping_name,
    accountRef: r.account_ref,
    status: r.status,
    counts: {
      rows: r.rows_total,
      created: r.created_count,
      duplicate: r.duplicate_count,
      linked: r.linked_count,
      review: r.review_count,
      rejected: r.rejected_count,
      transfers: r.transfer_count,
    },
    balance: r.balance ? balanceForApi(JSON.parse(r.balance) as BalanceCheck, r.currency) : null,
    warnings: JSON.parse(r.warnings) as string[],
    undoneAt: r.undone_at,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

export function getImportBatch(db: Db, teamId: string, id: string): ImportBatch {
  const r = db
    .prepare(
      'SELECT b.*, a.currency FROM import_batches b JOIN bank_accounts a ON a.id = b.bank_account_id WHERE b.team_id = ? AND b.id = ?',
    )
    .get(teamId, id) as BatchRow | undefined;
  if (!r) throw new NotFound('import batch', id);
  return toBatch(r);
}

export function listImportBatches(
  db: Db,
  teamId: string,
  q: { bankAccountId?: string; cursor?: string; pageSize?: number },
): { data: ImportBatch[]; meta: { cursor: string | null; hasNextPage: boolean; hasPreviousPage: boolean } } {
  const where = ['b.team_id = @team'];
  if (q.bankAccountId) where.push('b.bank_account_id = @account');
  const page = keysetPage(db, {
    from: 'import_batches b',
    id: 'b.id',
    where,
    params: { team: teamId, account: q.bankAccountId ?? null },
    sort: { sql: 'b.created_at', kind: 'text' },
    direction: 'desc',
    pageSize: q.pageSize ?? 50,
    fingerprint: listFingerprint(['import_batches', teamId, q.bankAccountId ?? null]),
    cursor: q.cursor,
  });
  return {
    data: page.ids.map((id) => getImportBatch(db, teamId, id)),
    meta: { cursor: page.cursor, hasNextPage: page.hasNextPage, hasPreviousPage: page.hasPreviousPage },
  };
}

export interface BatchRowOutcome {
  position: number;
  line: number | null;
  outcome: 'created' | 'duplicate' | 'linked' | 'review' | 'rejected';
  transactionId: string | null;
  match: string | null;
  reason: string | null;
  date: string | null;
  amount: number | null;
  description: string | null;
  externalId: string | null;
}

export interface OutcomeRow {
  position: number;
  line: number | null;
  outcome: BatchRowOutcome['outcome'];
  transaction_id: string | null;
  match: string | null;
  reason: string | null;
  date: string | null;
  amount_minor: number | null;
  description: string | null;
  external_id: string | null;
  before: string | null;
}

/** A page of a batch's per-row outcomes, in file order; `outcome` filters. */
export function listBatchRows(
  db: Db,
  teamId: string,
  batchId: string,
  q: { outcome?: BatchRowOutcome['outcome']; after?: number; limit?: number },
): { data: BatchRowOutcome[]; next: number | null } {
  const batch = getImportBatch(db, teamId, batchId);
  const currency =
    (db.prepare('SELECT currency FROM bank_accounts WHERE id = ?').pluck().get(batch.bankAccountId) as string) ?? 'EUR';
  const limit = q.limit ?? 200;
  const rows = db
    .prepare(
      `SELECT * FROM import_batch_rows WHERE team_id = @team AND batch_id = @batch AND position > @after
       AND (@outcome IS NULL OR outcome = @outcome) ORDER BY position LIMIT @limit`,
    )
    .all({ team: teamId, batch: batchId, after: q.after ?? -1, outcome: q.outcome ?? null, limit: limit + 1 }) as OutcomeRow[];
  const page = rows.slice(0, limit);
  return {
    data: page.map((r) => ({
      position: r.position,
      line: r.line,
      outcome: r.outcome,
      transactionId: r.transaction_id,
      match: r.match,
      reason: r.reason,
      date: r.date,
      amount: r.amount_minor === null ? null : toMajor(r.amount_minor, currency),
      description: r.description,
      externalId: r.external_id,
    })),
    next: rows.length > limit ? page[page.length - 1]!.position : null,
  };
}
