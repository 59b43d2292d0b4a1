import { toMajor } from '../../money';
import { formatMinor } from './amounts';
import type { BalancePoint, ParsedFile, ParsedRow } from './types';

/**
 * The statement's own arithmetic (docs/decisions/0063-balance-check.md): opening balance + the booked rows = each
 * balance the file states after them (a CSV running-balance column states one after every row; camt.053 and MT940
 * one per statement or page; OFX only a closing one). The first stated balance the rows do not reach names where a
 * line is missing or doubled: with a running-balance column that is the row itself; otherwise the statement (the
 * rows between two stated balances), with the rows whose amount would explain the gap.
 */
export interface BalanceCheck {
  status: 'ok' | 'mismatch' | 'unchecked';
  /** Where the opening balance came from: the file, or the account's own ledger before the file's first day. */
  openingSource: 'file' | 'ledger' | null;
  openingMinor: number | null;
  closingMinor: number | null;
  /** Opening + every booked row. */
  computedClosingMinor: number | null;
  /** At the first stated balance the rows miss: stated − computed. */
  differenceMinor: number | null;
  firstDivergingRow: { index: number; line: number; date: string } | null;
  /** The rows between the last balance that held and the first that did not. */
  segment: { fromIndex: number; toIndex: number; fromLine: number; toLine: number } | null;
  /** Rows of that segment whose amount equals the gap's opposite (a doubled line). */
  suspects: { index: number; line: number; amountMinor: number }[];
  message: string;
}

const unchecked = (message: string): BalanceCheck => ({
  status: 'unchecked',
  openingSource: null,
  openingMinor: null,
  closingMinor: null,
  computedClosingMinor: null,
  differenceMinor: null,
  firstDivergingRow: null,
  segment: null,
  suspects: [],
  message,
});

export function checkBalances(
  file: ParsedFile,
  currency: string,
  ledgerOpening: { amountMinor: number } | null = null,
): BalanceCheck {
  const ordered: ParsedRow[] = file.newestFirst ? [...file.rows].reverse() : file.rows;
  const positionOf = new Map(ordered.map((r, i) => [r.index, i]));
  const points: (BalancePoint & { source: 'file' | 'ledger' })[] = file.balances.map((b) => ({ ...b, source: 'file' as const }));
  if (points.length === 0) return unchecked('The file states no balances');
  if (points[0]!.kind !== 'opening') {
    if (!ledgerOpening) {
      return unchecked('The file states a closing balance only and the account has no earlier transactions to open from');
    }
    points.unshift({
      kind: 'opening',
      afterIndex: -1,
      date: null,
      amountMinor: ledgerOpening.amountMinor,
      line: null,
      source: 'ledger',
    });
  }
  const pos = (p: BalancePoint) => (p.afterIndex < 0 ? -1 : (positionOf.get(p.afterIndex) ?? -1));
  const opening = points[0]!;
  let running = opening.amountMinor;
  let last = pos(opening);
  const total = ordered.reduce((s, r) => s + (r.status === 'posted' ? r.amountMinor : 0), 0);
  const closing = points[points.length - 1]!;
  const base = {
    openingSource: opening.source,
    openingMinor: opening.amountMinor,
    closingMinor: closing.kind === 'closing' ? closing.amountMinor : null,
    computedClosingMinor: opening.amountMinor + total,
  };
  for (const p of points.slice(1)) {
    const at = pos(p);
    for (let i = last + 1; i <= at; i++) if (ordered[i]!.status === 'posted') running += ordered[i]!.amountMinor;
    if (running !== p.amountMinor) {
      const difference = p.amountMinor - running;
      const segmentRows = ordered.slice(last + 1, at + 1);
      const first = segmentRows[0] ?? ordered[Math.max(0, at)];
      const lastRow = segmentRows[segmentRows.length - 1] ?? first;
      const suspects = segmentRows
        .filter((r) => r.status === 'posted' && r.amountMinor === -difference)
        .map((r) => ({ index: r.index, line: r.line, amountMinor: r.amountMinor }));
      const where =
        segmentRows.length === 1
          ? `row ${first!.index + 1} (line ${first!.line}, ${first!.date})`
          : segmentRows.length === 0
            ? `before ${p.date ?? 'the stated balance'} (no rows between two stated balances)`
            : `rows ${first!.index + 1}–${lastRow!.index + 1} (lines ${first!.line}–${lastRow!.line}, ${first!.date} to ${lastRow!.date})`;
      return {
        status: 'mismatch',
        ...base,
        differenceMinor: difference,
        firstDivergingRow: first ? { index: first.index, line: first.line, date: first.date } : null,
        segment:
          first && lastRow
            ? { fromIndex: first.index, toIndex: lastRow.index, fromLine: first.line, toLine: lastRow.line }
            : null,
        suspects,
        message:
          `The balance stated${p.line ? ` on line ${p.line}` : ''}${p.date ? ` for ${p.date}` : ''} is ${formatMinor(p.amountMinor, currency)}, ` +
          `but the ${opening.source === 'ledger' ? "account's balance before the file" : 'opening balance'} and the rows reach ` +
          `${formatMinor(running, currency)}: a line of ${formatMinor(difference, currency)} is missing` +
          `${suspects.length ? ` (or the line of ${formatMinor(-difference, currency)} is doubled)` : ''} at ${where}`,
      };
    }
    last = at;
  }
  return {
    status: 'ok',
    ...base,
    differenceMinor: 0,
    firstDivergingRow: null,
    segment: null,
    suspects: [],
    message: `Opening ${formatMinor(opening.amountMinor, currency)} + ${ordered.filter((r) => r.status === 'posted').length} booked rows = closing ${formatMinor(running, currency)}: the statement adds up`,
  };
}

/** The check as the API shows it: amounts in major units of the account's currency. */
export function balanceForApi(b: BalanceCheck, currency: string) {
  const m = (v: number | null) => (v === null ? null : toMajor(v, currency));
  return {
    status: b.status,
    openingSource: b.openingSource,
    opening: m(b.openingMinor),
    closing: m(b.closingMinor),
    computedClosing: m(b.computedClosingMinor),
    difference: m(b.differenceMinor),
    firstDivergingRow: b.firstDivergingRow,
    segment: b.segment,
    suspects: b.suspects.map((s) => ({ index: s.index, line: s.line, amount: toMajor(s.amountMinor, currency) })),
    message: b.message,
  };
}
export type ApiBalanceCheck = ReturnType<typeof balanceForApi>;
