import { currencyExponent, MoneyError, toMinor } from '../../../src-shared/money';
import type { Db } from '../db';
import { extractedFieldsOf } from '../documents/documents';
import { type StoredFile, storedFile } from '../files/stored-files';
import { getTeam } from '../teams/teams';
import { write } from '../write';
import { type InboxRow, inboxRow } from './items';

/**
 * What an inbox item takes from its file's extraction (docs/decisions/0083-document-extraction.md): the amount,
 * date, merchant and tax found, and the status that moves the item on to matching.
 */

function minorOrNull(amount: number | null, currency: string): number | null {
  if (amount === null) return null;
  try {
    return toMinor(amount, currency);
  } catch (err) {
    // More decimals than the currency has (a receipt total read as 1280.00 JPY is fine; 12.5 JPY is not): rounded.
    if (err instanceof MoneyError) return Math.round(amount * 10 ** currencyExponent(currency));
    throw err;
  }
}

/**
 * The columns an item takes from its file's extraction: found values fill only fields nobody set (a correction
 * made while extraction ran is kept). A completed or failed extraction moves a new/processing item on to analyzing;
 * an item already past that (matched when it was uploaded onto a transaction) takes the fields and keeps its status.
 */
export function extractionValues(
  db: Db,
  teamId: string,
  file: StoredFile,
  current?: InboxRow,
): Record<string, string | number | null> {
  const status = current?.status ?? 'new';
  const early = status === 'new' || status === 'processing';
  if (file.extraction_status === 'pending') return {};
  if (file.extraction_status === 'processing') return early ? { status: 'processing' } : {};
  if (file.extraction_status === 'failed') return early ? { status: 'pending' } : {};
  const f = extractedFieldsOf(file);
  const currency = current?.currency ?? f?.currency ?? getTeam(db, teamId).baseCurrency;
  const values: Record<string, string | number | null> = {
    ...(early ? { status: 'analyzing' } : {}),
    content: file.extracted_text ? file.extracted_text.slice(0, 100_000) : null,
  };
  if (!current || current.amount_minor === null) {
    values.amount_minor = f ? minorOrNull(f.amount, currency) : null;
    values.currency = currency;
    values.tax_amount_minor = f ? minorOrNull(f.vatAmount, currency) : null;
    values.tax_rate = f?.vatRate ?? null;
  }
  if (!current?.display_name) values.display_name = f?.merchant ?? null;
  if (!current?.date) values.date = f?.date ?? null;
  if (!current?.website) values.website = f?.website ?? null;
  return values;
}

/** Copies a file's extraction state onto every inbox item holding it, team by team. Returns the teams touched. */
export function applyExtractionToInbox(db: Db, sha: string): string[] {
  const file = storedFile(db, sha);
  if (!file) return [];
  const items = db.prepare('SELECT id, team_id FROM inbox_items WHERE sha256 = ?').all(sha) as { id: string; team_id: string }[];
  const teams = [...new Set(items.map((i) => i.team_id))];
  for (const teamId of teams) {
    write(
      db,
      teamId,
      (w) => {
        for (const i of items.filter((x) => x.team_id === teamId)) {
          w.update('inbox_item', i.id, extractionValues(db, teamId, file, inboxRow(db, teamId, i.id)));
        }
      },
      { origin: 'system' },
    );
  }
  return teams;
}
