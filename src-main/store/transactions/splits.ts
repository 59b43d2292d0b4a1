import { UNCATEGORIZED } from '../../../src-shared/domain/transactions';
import type { Db } from '../db';
import { InvalidReference } from '../errors';
import { newId } from '../ids';
import type { LedgerWrite } from '../ledger/derived-data';

/** A transaction's split into parts, each with its own category and tax: the parts add up to the amount exactly. */
export interface NewSplit {
  amountMinor: number;
  categorySlug?: string | null;
  taxRate?: number | null;
  taxType?: string | null;
  note?: string | null;
}

/** The parts must add up to the amount exactly and name the team's categories. */
export function checkSplits(lw: LedgerWrite, amountMinor: number, splits: readonly NewSplit[]): void {
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

/** Replaces the transaction's split parts (none when `splits` is null). */
export function writeSplits(lw: LedgerWrite, transactionId: string, splits: readonly NewSplit[] | null): void {
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

/** A split part as stored: unset fields null, the "uncategorized" slug as no category. */
export function normalizeSplit(p: NewSplit): Required<NewSplit> {
  return {
    amountMinor: p.amountMinor,
    categorySlug: p.categorySlug && p.categorySlug !== UNCATEGORIZED ? p.categorySlug : null,
    taxRate: p.taxRate ?? null,
    taxType: p.taxType ?? null,
    note: p.note ?? null,
  };
}

/** The stored parts of a transaction, in order, in the shape normalizeSplit gives. */
export function splitRows(db: Db, teamId: string, transactionId: string): Required<NewSplit>[] {
  return db
    .prepare(
      `SELECT amount_minor AS amountMinor, category_slug AS categorySlug, tax_rate AS taxRate, tax_type AS taxType, note
       FROM transaction_splits WHERE team_id = ? AND transaction_id = ? ORDER BY position`,
    )
    .all(teamId, transactionId) as Required<NewSplit>[];
}
