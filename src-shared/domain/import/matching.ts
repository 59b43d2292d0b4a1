import { normalizedWords } from './words';

/**
 * Hand-entered transactions meet bank rows; transfers between own accounts (docs/decisions/0064, 0065). Pure
 * scoring and thresholds; the candidates are read by the store.
 *
 * A candidate for a bank row: a hand-entered (manual) transaction of the same account, not linked to a bank row yet,
 * with exactly the same amount in minor units, dated within MATCH_WINDOW_DAYS of the booking day.
 * score = 0.5 × date closeness (1 − |Δdays| / (window + 1)) + 0.5 × name similarity (shared words over the shorter
 * text's words). One candidate scoring ≥ AUTO_LINK_MIN, claimed by no other row of the file, is linked; anything
 * else with a candidate (two or more, or one below the threshold) goes to the review queue, never merged.
 */
export const MATCH_WINDOW_DAYS = 5;
export const AUTO_LINK_MIN = 0.5;
/** Settlement window of a transfer between two of the team's accounts, either way. */
export const TRANSFER_WINDOW_DAYS = 5;

export function daysBetween(a: string, b: string): number {
  return Math.round((Date.parse(`${a}T00:00:00Z`) - Date.parse(`${b}T00:00:00Z`)) / 86_400_000);
}

export function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}

/** Shared words over the shorter side's words (0–1); a text contained in the other counts fully. */
export function nameSimilarity(a: readonly (string | null | undefined)[], b: readonly (string | null | undefined)[]): number {
  const wa = normalizedWords(...a)
    .split(' ')
    .filter((w) => w.length > 1 && !/^\d+$/.test(w));
  const wb = new Set(
    normalizedWords(...b)
      .split(' ')
      .filter((w) => w.length > 1 && !/^\d+$/.test(w)),
  );
  if (wa.length === 0 || wb.size === 0) return 0;
  const shared = wa.filter((w) => wb.has(w)).length;
  return shared / Math.min(wa.length, wb.size);
}

export interface MatchCandidate {
  transactionId: string;
  date: string;
  name: string;
  description: string | null;
  counterpartyName: string | null;
}

export interface ScoredCandidate {
  transactionId: string;
  score: number;
  days: number;
  nameSimilarity: number;
}

export function scoreCandidate(
  row: { date: string; name: string; description: string | null; counterparty: string | null },
  c: MatchCandidate,
): ScoredCandidate {
  const days = Math.abs(daysBetween(row.date, c.date));
  const sim = nameSimilarity([row.counterparty, row.name, row.description], [c.name, c.counterpartyName, c.description]);
  const score = 0.5 * (1 - days / (MATCH_WINDOW_DAYS + 1)) + 0.5 * sim;
  return {
    transactionId: c.transactionId,
    score: Math.round(score * 1000) / 1000,
    days,
    nameSimilarity: Math.round(sim * 1000) / 1000,
  };
}

export type MatchDecision =
  | { kind: 'none' }
  | { kind: 'link'; candidate: ScoredCandidate }
  | { kind: 'review'; candidates: ScoredCandidate[]; reason: string };

/**
 * Decides every row at once, so two rows of one file never claim the same hand-entered transaction: a candidate
 * that more than one row could take sends those rows to review.
 */
export function decideMatches(candidatesPerRow: ReadonlyMap<number, ScoredCandidate[]>): Map<number, MatchDecision> {
  const claims = new Map<string, number>();
  for (const list of candidatesPerRow.values())
    for (const c of list) claims.set(c.transactionId, (claims.get(c.transactionId) ?? 0) + 1);
  const out = new Map<number, MatchDecision>();
  for (const [row, list] of candidatesPerRow) {
    if (list.length === 0) {
      out.set(row, { kind: 'none' });
      continue;
    }
    const sorted = [...list].sort((a, b) => b.score - a.score || a.days - b.days);
    if (sorted.length > 1) {
      out.set(row, {
        kind: 'review',
        candidates: sorted,
        reason: `${sorted.length} hand-entered transactions could be this one`,
      });
    } else if ((claims.get(sorted[0]!.transactionId) ?? 0) > 1) {
      out.set(row, {
        kind: 'review',
        candidates: sorted,
        reason: 'another row of the file could be the same hand-entered transaction',
      });
    } else if (sorted[0]!.score < AUTO_LINK_MIN) {
      out.set(row, {
        kind: 'review',
        candidates: sorted,
        reason: `the only hand-entered candidate scores ${sorted[0]!.score} (below ${AUTO_LINK_MIN})`,
      });
    } else {
      out.set(row, { kind: 'link', candidate: sorted[0]! });
    }
  }
  return out;
}
