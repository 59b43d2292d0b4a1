/**
 * How well a receipt (an inbox item) matches a bank transaction: amount, currency, date distance and name
 * similarity, each scored 0–1 and weighted into a confidence (docs/decisions/0084-inbox-matching.md).
 *
 * - amount (weight 0.45): the receipt total against the transaction's absolute amount. Same currency: exact → 1,
 *   within 0.5 % → 0.9, within 2 % (tips, rounding) → 0.6, else 0. Receipt currency = the transaction's base currency
 *   (a card payment abroad, converted by the bank): within 3 % of the base amount → 0.8, within 6 % → 0.5. A receipt
 *   whose amount scores 0 is never suggested, whatever else agrees.
 * - currency (0.10): same → 1, matches through the base amount → 0.5, else 0.
 * - date (0.20): days between receipt and booking (banks book card payments 0–3 days later): ≤1 → 1, ≤3 → 0.9,
 *   ≤7 → 0.7, ≤14 → 0.4, ≤30 → 0.15, else 0.
 * - name (0.25): the best of the transaction's name, merchant and counterparty against the receipt's merchant,
 *   by word overlap and character bigrams, after dropping legal forms and store numbers.
 *
 * Thresholds: a suggestion at ≥ 0.6, an automatic match at ≥ 0.9 (the hosted values). With these weights an exact
 * amount and currency booked within a day reach 0.75 without any name evidence: a suggestion, never an automatic
 * match, which needs the name to agree as well (name ≥ 0.6). An automatic match is also withheld when another
 * candidate comes within 0.05 of the best: two equally good transactions are a question for a person.
 */
export const SUGGEST_THRESHOLD = 0.6;
export const AUTO_MATCH_THRESHOLD = 0.9;
export const AMBIGUITY_MARGIN = 0.05;
export const WEIGHTS = { amount: 0.45, currency: 0.1, date: 0.2, name: 0.25 } as const;
/** Transactions further than this from the receipt's date are not candidates. */
export const CANDIDATE_WINDOW_DAYS = 45;

export interface ReceiptSide {
  amountMinor: number;
  currency: string;
  /** YYYY-MM-DD */
  date: string;
  merchant: string | null;
}

export interface TransactionSide {
  amountMinor: number;
  currency: string;
  baseAmountMinor: number | null;
  baseCurrency: string | null;
  date: string;
  names: readonly (string | null)[];
}

export interface MatchScore {
  amount: number;
  currency: number;
  date: number;
  name: number;
  confidence: number;
}

function amountScore(receipt: ReceiptSide, tx: TransactionSide): { amount: number; currency: number } {
  const r = Math.abs(receipt.amountMinor);
  if (r === 0) return { amount: 0, currency: 0 };
  if (receipt.currency === tx.currency) {
    const diff = Math.abs(Math.abs(tx.amountMinor) - r) / r;
    return { amount: diff === 0 ? 1 : diff <= 0.005 ? 0.9 : diff <= 0.02 ? 0.6 : 0, currency: 1 };
  }
  if (tx.baseCurrency === receipt.currency && tx.baseAmountMinor !== null) {
    const diff = Math.abs(Math.abs(tx.baseAmountMinor) - r) / r;
    return { amount: diff <= 0.03 ? 0.8 : diff <= 0.06 ? 0.5 : 0, currency: 0.5 };
  }
  return { amount: 0, currency: 0 };
}

export function daysBetween(a: string, b: string): number {
  return Math.round(Math.abs(Date.parse(`${a}T00:00:00Z`) - Date.parse(`${b}T00:00:00Z`)) / 86_400_000);
}

function dateScore(days: number): number {
  return days <= 1 ? 1 : days <= 3 ? 0.9 : days <= 7 ? 0.7 : days <= 14 ? 0.4 : days <= 30 ? 0.15 : 0;
}

const NOISE = new Set([
  'gmbh',
  'ag',
  'kg',
  'ltd',
  'limited',
  'inc',
  'llc',
  'plc',
  'sa',
  'sas',
  'bv',
  'nv',
  'co',
  'corp',
  'the',
  'und',
  'and',
  'store',
  'shop',
  'station',
  'www',
  'com',
  'de',
  'payment',
  'card',
  'pos',
  'purchase',
  'visa',
  'mastercard',
]);

/** Lower-case words without diacritics, legal forms, payment boilerplate and numbers. */
export function nameWords(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter((w) => w.length > 1 && !NOISE.has(w));
}

function bigrams(s: string): Map<string, number> {
  const out = new Map<string, number>();
  for (let i = 0; i < s.length - 1; i++) {
    const g = s.slice(i, i + 2);
    out.set(g, (out.get(g) ?? 0) + 1);
  }
  return out;
}

/** 0–1: the better of word overlap (share of the shorter name's words) and the bigram Dice coefficient. */
export function nameSimilarity(a: string, b: string): number {
  const wa = nameWords(a);
  const wb = nameWords(b);
  if (wa.length === 0 || wb.length === 0) return 0;
  const sb = new Set(wb);
  const shared = wa.filter(
    (w) => sb.has(w) || [...sb].some((x) => x.length >= 4 && w.length >= 4 && (x.startsWith(w) || w.startsWith(x))),
  );
  const overlap = shared.length / Math.min(wa.length, wb.length);
  const ga = bigrams(wa.join(''));
  const gb = bigrams(wb.join(''));
  let common = 0;
  let total = 0;
  for (const [g, n] of ga) {
    common += Math.min(n, gb.get(g) ?? 0);
    total += n;
  }
  for (const n of gb.values()) total += n;
  const dice = total === 0 ? 0 : (2 * common) / total;
  return Math.min(1, Math.max(overlap, dice));
}

export function scoreMatch(receipt: ReceiptSide, tx: TransactionSide): MatchScore {
  const { amount, currency } = amountScore(receipt, tx);
  const date = dateScore(daysBetween(receipt.date, tx.date));
  const name = receipt.merchant
    ? Math.max(0, ...tx.names.filter((n): n is string => !!n).map((n) => nameSimilarity(receipt.merchant as string, n)))
    : 0;
  const confidence =
    amount === 0
      ? 0
      : Math.round((amount * WEIGHTS.amount + currency * WEIGHTS.currency + date * WEIGHTS.date + name * WEIGHTS.name) * 1000) /
        1000;
  return { amount, currency, date, name: Math.round(name * 1000) / 1000, confidence };
}

export type MatchDecision<T> =
  | { kind: 'auto'; best: T & { score: MatchScore } }
  | { kind: 'suggest'; candidates: (T & { score: MatchScore })[] }
  | { kind: 'none' };

/** Ranks scored candidates and decides: automatic match, suggestions (best first, at most `max`), or none. */
export function decideMatch<T>(scored: readonly (T & { score: MatchScore })[], max = 3): MatchDecision<T> {
  const ranked = scored
    .filter((c) => c.score.confidence >= SUGGEST_THRESHOLD)
    .sort((a, b) => b.score.confidence - a.score.confidence);
  const [best, second] = ranked;
  if (!best) return { kind: 'none' };
  if (
    best.score.confidence >= AUTO_MATCH_THRESHOLD &&
    (!second || best.score.confidence - second.score.confidence >= AMBIGUITY_MARGIN)
  ) {
    return { kind: 'auto', best };
  }
  return { kind: 'suggest', candidates: ranked.slice(0, max) };
}
