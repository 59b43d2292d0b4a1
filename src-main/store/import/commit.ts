import { normalizeAccountRef } from '../../../src-shared/domain/import/account-ref';
import type { ParseResult } from '../../../src-shared/domain/import/types';
import type { Db } from '../db';
import { Conflict } from '../errors';
import { publish } from '../events';
import { write } from '../write';
import { getImportBatch, type ImportBatch } from './batches';
import { planImport } from './plan';
import { createBankRows, type LinkSnapshot, linkBankRow } from './rows';
import { pairTransfers } from './transfers';

/**
 * Committing an import (docs/decisions/0062–0066): the file is planned again and written in one SQLite transaction
 * (all of it or nothing) that records every row's outcome in the batch, so undo.ts can take it back as one.
 */

export interface CommitOptions {
  fileName?: string | null;
  mappingName?: string | null;
  /** Commit although the file's balances do not add up (recorded as a warning on the batch). */
  acceptBalanceMismatch?: boolean;
  /** Commit although the same file was imported before (its rows will be duplicates). */
  allowReimport?: boolean;
  /** Progress of the write, for long imports (rows written so far of the total to write). */
  onProgress?: (done: number, total: number) => void;
  /** Called as each phase of the commit begins (long imports show where they are; the bench times them). */
  onPhase?: (phase: 'plan' | 'create' | 'link' | 'review' | 'rows' | 'transfers' | 'rules' | 'done') => void;
  /** Run the team's rules on the created rows (default true). */
  applyRules?: boolean;
  /** Called with the created transaction ids inside the commit's transaction. */
  afterCreate?: (ids: readonly string[]) => void;
}

export interface CommitResult {
  batch: ImportBatch;
  createdIds: string[];
  links: { index: number; line: number; transactionId: string; score: number | null }[];
  review: { index: number; line: number; itemId: string; candidates: string[] }[];
  rejected: { index: number; line: number; reason: string }[];
  transfers: { paired: number; suggested: number };
}

const CHUNK = 5000;

/** Plans and commits in one SQLite transaction: all of it or nothing. */
export function commitImport(
  db: Db,
  teamId: string,
  accountId: string,
  parsed: ParseResult,
  options: CommitOptions = {},
): CommitResult {
  return write(
    db,
    teamId,
    (w) => {
      const phase = options.onPhase ?? (() => {});
      phase('plan');
      const plan = planImport(db, teamId, accountId, parsed);
      if (plan.alreadyImported && !options.allowReimport) {
        throw new Conflict(
          `This file was already imported (batch ${plan.alreadyImported.batchId}, ${plan.alreadyImported.createdAt})`,
          'Nothing was written. Re-importing it would only find duplicates; pass allowReimport to record it anyway, or undo the earlier batch first',
        );
      }
      const warnings = [...plan.warnings];
      if (plan.balance.status === 'mismatch') {
        if (!options.acceptBalanceMismatch && plan.balance.openingSource === 'file') {
          throw new Conflict(
            `The statement does not add up: ${plan.balance.message}`,
            'Nothing was written. Fix the file, or pass acceptBalanceMismatch to import it with a warning',
          );
        }
        warnings.push(`Balance check: ${plan.balance.message}`);
      }
      const batchId = w.insert('import_batch', {
        bank_account_id: accountId,
        file_name: options.fileName ?? null,
        file_sha256: plan.sha256,
        file_size: plan.size,
        format: plan.format,
        encoding: plan.encoding,
        mapping: plan.mapping ? JSON.stringify(plan.mapping) : null,
        mapping_name: options.mappingName ?? null,
        account_ref: parsed.file.accountRef ? normalizeAccountRef(parsed.file.accountRef) : null,
        status: 'committed',
        rows_total: plan.counts.rows,
        balance: JSON.stringify(plan.balance),
        warnings: JSON.stringify(warnings),
      });

      phase('create');
      const toCreate = plan.rows.filter((r) => r.outcome === 'new');
      const total = toCreate.length + plan.counts.link + plan.counts.review;
      let done = 0;
      const createdIds: string[] = [];
      for (let i = 0; i < toCreate.length; i += CHUNK) {
        const chunk = toCreate.slice(i, i + CHUNK);
        const ids = createBankRows(
          db,
          teamId,
          accountId,
          batchId,
          chunk.map((r) => r.row!),
          plan.format,
        );
        chunk.forEach((r, j) => {
          r.transactionId = ids[j]!;
        });
        createdIds.push(...ids);
        done += chunk.length;
        options.onProgress?.(done, total);
      }
      phase('link');
      const snapshots = new Map<number, LinkSnapshot>();
      const links: CommitResult['links'] = [];
      for (const r of plan.rows) {
        if (r.outcome !== 'link') continue;
        snapshots.set(r.index, linkBankRow(db, teamId, r.transactionId!, batchId, r.row!));
        links.push({ index: r.index, line: r.line, transactionId: r.transactionId!, score: r.score });
        options.onProgress?.(++done, total);
      }
      phase('review');
      const review: CommitResult['review'] = [];
      for (const r of plan.rows) {
        if (r.outcome !== 'review') continue;
        const itemId = w.insert('import_review_item', {
          bank_account_id: accountId,
          batch_id: batchId,
          position: r.index,
          status: 'open',
          row: JSON.stringify({ ...r.row, format: plan.format }),
          candidates: JSON.stringify(r.candidates),
          external_id: r.row!.externalId,
          fingerprint: r.row!.fingerprint,
        });
        r.transactionId = itemId;
        review.push({ index: r.index, line: r.line, itemId, candidates: r.candidates.map((c) => c.transactionId) });
        options.onProgress?.(++done, total);
      }
      phase('rows');
      const insertRow = db.prepare(
        `INSERT INTO import_batch_rows (team_id, batch_id, position, line, outcome, transaction_id, match, reason, date, amount_minor,
           description, external_id, fingerprint, before)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      );
      for (const r of plan.rows) {
        const outcome = r.outcome === 'new' ? 'created' : r.outcome === 'link' ? 'linked' : r.outcome;
        const match = r.outcome === 'link' ? `score ${r.score}` : r.outcome === 'review' ? JSON.stringify(r.candidates) : r.match;
        insertRow.run(
          teamId,
          batchId,
          r.index,
          r.line,
          outcome,
          r.transactionId,
          match,
          r.reason,
          r.row?.date ?? null,
          r.row?.amountMinor ?? null,
          r.row?.description ?? r.row?.name ?? null,
          r.row?.externalId ?? null,
          r.row?.fingerprint ?? null,
          snapshots.has(r.index) ? JSON.stringify({ snapshot: snapshots.get(r.index), row: r.row }) : null,
        );
      }
      phase('transfers');
      const pairing = pairTransfers(db, teamId, [...createdIds, ...links.map((l) => l.transactionId)], batchId);
      // The team's rules (and confident category suggestions) run on the rows the import created, in this transaction
      // (src-main/rules subscribes to the event).
      phase('rules');
      publish(w, 'transactions.imported', { transactionIds: createdIds, runRules: options.applyRules !== false });
      options.afterCreate?.(createdIds);
      phase('done');
      w.update('import_batch', batchId, {
        created_count: createdIds.length,
        duplicate_count: plan.counts.duplicate,
        linked_count: links.length,
        review_count: review.length,
        rejected_count: plan.counts.rejected,
        transfer_count: pairing.paired.length,
      });
      return {
        batch: getImportBatch(db, teamId, batchId),
        createdIds,
        links,
        review,
        rejected: plan.rows
          .filter((r) => r.outcome === 'rejected')
          .map((r) => ({ index: r.index, line: r.line, reason: r.reason ?? '' })),
        transfers: { paired: pairing.paired.length, suggested: pairing.suggested.length },
      };
    },
    { origin: 'import' },
  );
}
