import { parseAmount } from '../../../src-shared/domain/import/amounts';
import { type DateFormat, parseDate } from '../../../src-shared/domain/import/dates';
import type { BalancePoint, ParsedRow } from '../../../src-shared/domain/import/types';

/**
 * Balances a CSV export states outside its table (issue 36): German banks put "Kontostand vom 31.03.2026:;4.811,37
 * EUR" above the header, others "Saldo;2.345,67;EUR" or "Closing balance …" below the rows. Such a line is the
 * statement's own word on where the account stood, so the balance check uses it as a camt or MT940 balance: opening
 * ("Anfangssaldo", "Opening balance", "alter Kontostand") before every row, otherwise closing after the last row
 * booked on or before its day (the whole file without a day).
 *
 * Read with care, never guessed: a line counts only when it names a balance, holds exactly one amount, and any day
 * it names lies within the file's days (or after them, for a closing balance).
 */

export interface TextRecord {
  line: number;
  cells: readonly string[];
}

const BALANCE = /(kontostand|saldo|closing balance|opening balance|ending balance|starting balance|balance)/i;
const OPENING = /(anfangs|alter kontostand|opening|starting|vortrag|début|initial)/i;
const DAY = /\b(\d{1,2}[./]\d{1,2}[./]\d{2,4}|\d{4}-\d{2}-\d{2})\b/;
/** One amount: digits with group marks, an optional decimal part, a sign or a currency on either side. */
const AMOUNT =
  /^[-+−]?\s*(?:[€$£]|[A-Z]{3})?\s*[-+−]?(?:\d{1,3}(?:[.,'’ \u00a0]\d{3})+|\d+)(?:[.,]\d{1,2})?\s*(?:[€$£]|[A-Z]{3})?$/;

export function statedBalances(
  lines: readonly TextRecord[],
  rows: readonly ParsedRow[],
  opts: { decimal: ',' | '.'; dateFormat: string; currency: string },
): BalancePoint[] {
  if (rows.length === 0) return [];
  const days = rows.map((r) => r.date).sort();
  const first = days[0]!;
  const last = days[days.length - 1]!;
  // The row booked last in time on or before a day: ties go to the one latest in the file's own time order.
  const newestFirst = rows[0]!.date > rows[rows.length - 1]!.date;
  const inTime = newestFirst ? [...rows].reverse() : rows;
  const points: BalancePoint[] = [];
  for (const rec of lines) {
    const text = rec.cells.join(' ').trim();
    if (!BALANCE.test(text)) continue;
    const amounts = rec.cells
      .flatMap((c) => c.split(/:\s*/))
      .map((c) => c.trim())
      .filter((c) => /\d/.test(c) && AMOUNT.test(c) && !DAY.test(c));
    if (amounts.length !== 1) continue;
    const amountMinor = parseAmount(amounts[0]!.replace(/[€$£]|[A-Z]{3}/g, '').trim(), { decimal: opts.decimal }, opts.currency);
    if (amountMinor === null) continue;
    const dayText = text.match(DAY)?.[1];
    // The table's own format first; a preamble may write the year in full where the rows do not ("31.03.26").
    const day = dayText ? dayIn(dayText, opts.dateFormat) : null;
    if (dayText && !day) continue;
    if (OPENING.test(text)) {
      if (day && day > first) continue;
      points.push({ kind: 'opening', afterIndex: -1, date: day, amountMinor, line: rec.line });
      continue;
    }
    if (day && day < first) continue;
    const after = [...inTime].reverse().find((r) => !day || r.date <= day) ?? inTime[inTime.length - 1]!;
    points.push({ kind: 'closing', afterIndex: after.index, date: day ?? last, amountMinor, line: rec.line });
  }
  const opening = points.filter((p) => p.kind === 'opening').slice(0, 1);
  const closing = points.filter((p) => p.kind === 'closing').slice(-1);
  return [...opening, ...closing];
}

function dayIn(text: string, tableFormat: string): string | null {
  const formats = [tableFormat, 'DD.MM.YYYY', 'YYYY-MM-DD', tableFormat.startsWith('MM') ? 'MM/DD/YYYY' : 'DD/MM/YYYY'];
  for (const f of formats) {
    const day = parseDate(text, f as DateFormat);
    if (day) return day;
  }
  return null;
}
