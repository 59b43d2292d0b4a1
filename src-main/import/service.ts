import type { CsvMapping } from '../../src-shared/contract/import-mapping';
import { balanceForApi } from '../../src-shared/domain/import/balance';
import type { CsvColumnInfo } from '../../src-shared/domain/import/types';
import { toMajor } from '../../src-shared/money';
import type { Db } from '../store/db';
import { InvalidReference } from '../store/errors';
import { importAccount } from '../store/import/account';
import { type CommitOptions, type CommitResult, commitImport } from '../store/import/commit';
import { findImportMapping, saveImportMapping, touchImportMapping } from '../store/import/mappings';
import { type ImportPlan, planImport, planTransfers } from '../store/import/plan';
import { createNotification } from '../store/notifications/notifications';
import type { TextEncoding } from './encoding';
import { type ParseResult, parseBankFile } from './parse-file';

/**
 * The import as the API and the CLI run it: choose the CSV mapping (the one sent, a saved one by name, the
 * account's last used one, else inferred from the file), parse, plan, and shape the preview; commit the same way,
 * saving the mapping when asked. (docs/decisions/0061 for the mapping choice.)
 */
export interface FileOptions {
  fileName?: string | null;
  mapping?: CsvMapping | null;
  mappingName?: string | null;
  encoding?: TextEncoding | null;
}

export interface Parsed {
  parse: ParseResult;
  mappingName: string | null;
  mappingId: string | null;
}

export function parseForAccount(db: Db, teamId: string, accountId: string, bytes: Uint8Array, o: FileOptions): Parsed {
  const account = importAccount(db, teamId, accountId);
  const base = { filename: o.fileName, currency: account.currency, encoding: o.encoding ?? null };
  if (o.mapping)
    return { parse: parseBankFile(bytes, { ...base, mapping: o.mapping }), mappingName: o.mappingName ?? null, mappingId: null };
  const saved = findImportMapping(db, teamId, accountId, o.mappingName);
  if (o.mappingName && !saved) {
    throw new InvalidReference('mappingName', `No saved mapping "${o.mappingName}" for this account`);
  }
  const probe = parseBankFile(bytes, { ...base, mapping: null });
  if (probe.file.format !== 'csv' || !saved) return { parse: probe, mappingName: null, mappingId: null };
  const withSaved = parseBankFile(bytes, { ...base, mapping: saved.mapping });
  if (withSaved.file.errors.length === 0 || o.mappingName) {
    return { parse: withSaved, mappingName: saved.name, mappingId: saved.id };
  }
  probe.notes.unshift(
    `the saved mapping "${saved.name}" does not fit this file (${withSaved.file.errors[0]!.message}); inferred a new one`,
  );
  return { parse: probe, mappingName: null, mappingId: null };
}

export interface PreviewShape {
  bankAccountId: string;
  fileName: string | null;
  sha256: string;
  size: number;
  format: 'csv' | 'ofx' | 'camt' | 'mt940';
  encoding: string;
  mapping: CsvMapping | null;
  mappingName: string | null;
  columns: CsvColumnInfo[];
  notes: string[];
  counts: ImportPlan['counts'];
  balance: ReturnType<typeof balanceOut>;
  alreadyImported: ImportPlan['alreadyImported'];
  transfers: { row: number; counterpartId: string; counterpartAccountId: string; days: number; unique: boolean }[];
  warnings: string[];
  rows: ReturnType<typeof rowOut>[];
}

function balanceOut(plan: ImportPlan) {
  return balanceForApi(plan.balance, plan.currency);
}

function rowOut(_plan: ImportPlan, r: ImportPlan['rows'][number]) {
  return {
    index: r.index,
    line: r.line,
    outcome: r.outcome,
    date: r.row?.date ?? null,
    amount: r.row ? toMajor(r.row.amountMinor, r.row.currency) : null,
    name: r.row?.name ?? null,
    description: r.row?.description ?? null,
    counterparty: r.row?.counterparty ?? null,
    externalId: r.row?.externalId ?? null,
    status: r.row?.status ?? null,
    transactionId: r.transactionId,
    match: r.match,
    score: r.score,
    candidates: r.candidates,
    reason: r.reason,
  };
}

export function previewFile(
  db: Db,
  teamId: string,
  accountId: string,
  bytes: Uint8Array,
  o: FileOptions & { rows?: number },
): { preview: PreviewShape; plan: ImportPlan; parsed: Parsed } {
  const parsed = parseForAccount(db, teamId, accountId, bytes, o);
  const plan = planImport(db, teamId, accountId, parsed.parse);
  const limit = o.rows ?? 500;
  // The first `limit` rows, then every row a person must look at (links, review, rejected); duplicates are counted.
  const shown = plan.rows.filter(
    (r, i) => i < limit || r.outcome === 'link' || r.outcome === 'review' || r.outcome === 'rejected',
  );
  return {
    plan,
    parsed,
    preview: {
      bankAccountId: accountId,
      fileName: o.fileName ?? null,
      sha256: plan.sha256,
      size: plan.size,
      format: plan.format as PreviewShape['format'],
      encoding: plan.encoding,
      mapping: (plan.mapping as CsvMapping | null) ?? null,
      mappingName: parsed.mappingName,
      columns: parsed.parse.file.columns ?? [],
      notes: plan.notes,
      counts: plan.counts,
      balance: balanceOut(plan),
      alreadyImported: plan.alreadyImported,
      transfers: planTransfers(db, teamId, plan).map((t) => ({
        row: Number(t.transactionId.slice(4)),
        counterpartId: t.counterpartId,
        counterpartAccountId: t.counterpartAccountId,
        days: t.days,
        unique: t.unique,
      })),
      warnings: plan.warnings,
      rows: shown.map((r) => rowOut(plan, r)),
    },
  };
}

export interface CommitFileOptions extends FileOptions {
  saveMappingAs?: string | null;
  acceptBalanceMismatch?: boolean;
  allowReimport?: boolean;
  onProgress?: (done: number, total: number) => void;
  onPhase?: CommitOptions['onPhase'];
  applyRules?: boolean;
}

export function commitFile(db: Db, teamId: string, accountId: string, bytes: Uint8Array, o: CommitFileOptions): CommitResult {
  const parsed = parseForAccount(db, teamId, accountId, bytes, o);
  const mappingName = o.saveMappingAs ?? parsed.mappingName;
  const result = db
    .transaction(() => {
      const r = commitImport(db, teamId, accountId, parsed.parse, {
        fileName: o.fileName,
        mappingName,
        acceptBalanceMismatch: o.acceptBalanceMismatch,
        allowReimport: o.allowReimport,
        onProgress: o.onProgress,
        onPhase: o.onPhase,
        applyRules: o.applyRules,
      });
      const mapping = parsed.parse.file.mapping as CsvMapping | null;
      if (mapping && o.saveMappingAs) saveImportMapping(db, teamId, accountId, o.saveMappingAs, mapping);
      else if (parsed.mappingId) touchImportMapping(db, teamId, parsed.mappingId);
      return r;
    })
    .immediate();
  // After the commit: the team hears of the new rows (the hosted notification type).
  if (result.createdIds.length > 0) {
    createNotification(db, teamId, {
      type: 'transactions_created',
      priority: 3,
      metadata: {
        count: result.createdIds.length,
        bankAccountId: accountId,
        batchId: result.batch.id,
        fileName: o.fileName ?? null,
        transactionIds: result.createdIds.slice(0, 50),
      },
    });
  }
  return result;
}
