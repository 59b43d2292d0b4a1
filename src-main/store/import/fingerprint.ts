import { createHash } from 'node:crypto';
import type { ParsedRow } from '../../../src-shared/domain/import/types';
import { normalizedWords } from '../../../src-shared/domain/import/words';

/**
 * The stable fingerprint of a bank row without a bank id (docs/decisions/0062-dedupe.md): account, booking day,
 * amount in minor units, the normalised words of its text, and its occurrence among the file's rows with the same
 * day, amount and words. The words are lower-cased, stripped of accents and punctuation, de-duplicated and sorted,
 * so a parser that orders name and purpose differently, or a bank that changes spacing or case, gives the same
 * fingerprint. The occurrence index keeps two identical purchases on one day as two rows; a weekly identical debit
 * has another day each week; a back-dated row has its own day.
 */
export function rowKey(r: Pick<ParsedRow, 'date' | 'amountMinor' | 'counterparty' | 'description' | 'name'>): string {
  return `${r.date}|${r.amountMinor}|${normalizedWords(r.counterparty, r.description ?? r.name)}`;
}

/** Fingerprints of the rows, in row order (occurrence counted in file order among identical keys). */
export function fingerprints(accountId: string, rows: readonly ParsedRow[]): string[] {
  const seen = new Map<string, number>();
  return rows.map((r) => {
    const key = rowKey(r);
    const occurrence = (seen.get(key) ?? 0) + 1;
    seen.set(key, occurrence);
    return createHash('sha256').update(`${accountId}\u0000${key}\u0000${occurrence}`).digest('hex').slice(0, 32);
  });
}
