import { payeeKey } from './recurring';

/**
 * Category suggestions that abstain when unsure (docs/decisions/0132-category-suggestions.md). Pure: trained on a
 * team's categorised history, asked about one transaction.
 *
 * - Payee evidence: the categories of earlier transactions with the same normalised payee (recurring.ts payeeKey),
 *   the most recent 20. Confidence = (votes for the top category) / (all votes + 1): one observation gives 0.5,
 *   3 of 3 give 0.75, 9 of 9 give 0.9, so certainty needs repeated, consistent evidence.
 * - Word evidence, only when the payee is unknown: each word (3+ letters) of the name and description votes with its
 *   own category distribution; confidence = the top category's share of the votes × min(1, words seen / 4) × 0.8
 *   (words are weaker evidence than the payee).
 * - A suggestion is made at confidence ≥ SUGGEST_AT and auto-applied only at ≥ AUTO_APPLY_AT; below, the model
 *   abstains. Direction matters: income and expense histories are kept apart.
 */
export const SUGGEST_AT = 0.5;
export const AUTO_APPLY_AT = 0.85;

export interface LabelledRow {
  name: string;
  description: string | null;
  counterparty: string | null;
  amountMinor: number;
  categorySlug: string;
  date: string;
}

export interface Suggestion {
  categorySlug: string;
  confidence: number;
  evidence: 'payee' | 'words';
  observations: number;
}

function words(name: string, description: string | null): string[] {
  const text = `${name} ${description ?? ''}`.normalize('NFKC').toLocaleLowerCase('en');
  return [...new Set(text.match(/\p{L}{3,}/gu) ?? [])];
}

export class CategoryModel {
  private readonly byPayee = new Map<string, string[]>();
  private readonly byWord = new Map<string, Map<string, number>>();

  constructor(history: readonly LabelledRow[]) {
    const sorted = [...history].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
    for (const r of sorted) {
      const dir = r.amountMinor < 0 ? 'out' : 'in';
      const payee = `${dir} ${payeeKey(r.counterparty, r.name)}`;
      const list = this.byPayee.get(payee) ?? [];
      list.push(r.categorySlug);
      if (list.length > 20) list.shift();
      this.byPayee.set(payee, list);
      for (const w of words(r.name, r.description)) {
        const key = `${dir} ${w}`;
        const counts = this.byWord.get(key) ?? new Map<string, number>();
        counts.set(r.categorySlug, (counts.get(r.categorySlug) ?? 0) + 1);
        this.byWord.set(key, counts);
      }
    }
  }

  suggest(t: Omit<LabelledRow, 'categorySlug' | 'date'>): Suggestion | null {
    const dir = t.amountMinor < 0 ? 'out' : 'in';
    const seen = this.byPayee.get(`${dir} ${payeeKey(t.counterparty, t.name)}`);
    if (seen && seen.length > 0) {
      const counts = new Map<string, number>();
      for (const c of seen) counts.set(c, (counts.get(c) ?? 0) + 1);
      const [top, n] = [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]!;
      const confidence = n / (seen.length + 1);
      return confidence >= SUGGEST_AT ? { categorySlug: top, confidence, evidence: 'payee', observations: seen.length } : null;
    }
    const votes = new Map<string, number>();
    let used = 0;
    for (const w of words(t.name, t.description)) {
      const counts = this.byWord.get(`${dir} ${w}`);
      if (!counts) continue;
      used++;
      const total = [...counts.values()].reduce((s, x) => s + x, 0);
      for (const [c, n] of counts) votes.set(c, (votes.get(c) ?? 0) + n / total);
    }
    if (votes.size === 0) return null;
    const total = [...votes.values()].reduce((s, x) => s + x, 0);
    const [top, v] = [...votes.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]!;
    const confidence = (v / total) * Math.min(1, used / 4) * 0.8;
    return confidence >= SUGGEST_AT ? { categorySlug: top, confidence, evidence: 'words', observations: used } : null;
  }
}

/**
 * Rules worth offering: payees whose recent categorised transactions agree (at least `minAgree` of the last
 * `window`), not already categorised by a rule.
 */
export function ruleCandidates(
  history: readonly LabelledRow[],
  options: { window?: number; minAgree?: number } = {},
): { payee: string; counterparty: string; categorySlug: string; agree: number; of: number }[] {
  const window = options.window ?? 5;
  const minAgree = options.minAgree ?? 3;
  const byPayee = new Map<string, LabelledRow[]>();
  for (const r of history) {
    const key = payeeKey(r.counterparty, r.name);
    if (!key) continue;
    const list = byPayee.get(key) ?? [];
    list.push(r);
    byPayee.set(key, list);
  }
  const out: { payee: string; counterparty: string; categorySlug: string; agree: number; of: number }[] = [];
  for (const [payee, rows] of byPayee) {
    const recent = [...rows].sort((a, b) => (a.date < b.date ? 1 : -1)).slice(0, window);
    const counts = new Map<string, number>();
    for (const r of recent) counts.set(r.categorySlug, (counts.get(r.categorySlug) ?? 0) + 1);
    const [top, n] = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]!;
    if (n >= minAgree) {
      out.push({
        payee,
        counterparty: recent[0]!.counterparty || recent[0]!.name,
        categorySlug: top,
        agree: n,
        of: recent.length,
      });
    }
  }
  return out.sort((a, b) => b.agree - a.agree || (a.payee < b.payee ? -1 : 1));
}
