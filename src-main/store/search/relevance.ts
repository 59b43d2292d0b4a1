/**
 * The relevance of a found record, from the record and the query alone (docs/decisions/0194-search-per-team.md): no
 * corpus statistics, so nothing another team stores (nor how much the team itself stores) moves a score.
 *
 * It is BM25 with every word weighing the same (no IDF) and each column's length measured against a fixed reference
 * length instead of the corpus average:
 *
 *   score = (1 / words) · Σ_word Σ_column weight · tf·(K1 + 1) / (tf + K1·(1 − B + B·length / REFERENCE_TOKENS))
 *
 * where tf counts the column's tokens the word finds: 1 for a token equal to the word, 0.5 for one it only begins.
 * The score is below 2.2 × the sum of a type's column weights, so a type whose weights sum below 40 stays under
 * WHOLE_WORDS. Folding (case, diacritics) here only weighs what FTS5 already found: a character folded differently
 * from unicode61 can lower a score, never lose a result.
 */

export const K1 = 1.2;
export const B = 0.75;
export const REFERENCE_TOKENS = 8;
/** Added when every word of the query is a whole word of the record (FTS5 found it without prefixes). */
export const WHOLE_WORDS = 100;

export interface ScoredColumn {
  text: string | null | undefined;
  weight: number;
}

const ASCII = /^[\x20-\x7e]*$/;
const WORD = /[\p{L}\p{N}]+/gu;

/** Lower case without diacritics ("Café" → "cafe"), as unicode61 remove_diacritics folds Latin text. */
export function fold(text: string): string {
  return ASCII.test(text)
    ? text.toLowerCase()
    : text
        .normalize('NFD')
        .replace(/\p{M}+/gu, '')
        .toLowerCase();
}

/** A column's folded tokens; `cache` holds them per distinct text for one search (records repeat their names). */
export function tokens(text: string, cache?: Map<string, readonly string[]>): readonly string[] {
  const hit = cache?.get(text);
  if (hit) return hit;
  const found = fold(text).match(WORD) ?? [];
  cache?.set(text, found);
  return found;
}

export function textScore(
  words: readonly string[],
  columns: readonly ScoredColumn[],
  cache?: Map<string, readonly string[]>,
): number {
  if (words.length === 0) return 0;
  const folded = words.map(fold);
  let score = 0;
  for (const { text, weight } of columns) {
    if (!text || weight === 0) continue;
    const toks = tokens(text, cache);
    const norm = K1 * (1 - B + (B * toks.length) / REFERENCE_TOKENS);
    for (const w of folded) {
      let tf = 0;
      for (const t of toks) if (t.startsWith(w)) tf += t.length === w.length ? 1 : 0.5;
      if (tf > 0) score += (weight * tf * (K1 + 1)) / (tf + norm);
    }
  }
  return score / words.length;
}
